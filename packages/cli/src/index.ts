/**
 * `aqm`, the command line of the AQM (Application Quality Monitoring and Guardrails) service,
 * and its programmatic pieces: {@link runCli} runs the command line in-process (the bin calls
 * it), and the parsers and renderers it is built from are exported for reuse and tests.
 * Importing this module has no side effects; the bin is the separate `dist/cli.js`.
 * @packageDocumentation
 */

export { visibleControls } from '@aqm/wire';
export { type ApplyConfig, validateApplyConfig } from './apply/apply-config.js';
export {
  type FilePosition,
  type LocatedFile,
  parseErrorPath,
  parseLocatedFile,
} from './apply/error-lines.js';
export { type ApplyPlan, guardrailsAfter, monitoringAfter, planApply } from './apply/plan.js';
export { groupPlugins, parseMetricFlag, parseValidatorFlag, type ValidatorFlag } from './config-flags.js';
export { describeError, type ErrorReport } from './describe-error.js';
export { parseDuration, parseTimeBound } from './durations.js';
export { EXIT_CODES, type ExitCode } from './exit-codes.js';
export type { CliInputStream, CliIo, CliOutputStream } from './io.js';
export { type CollectedList, collectList, type FetchedPage, type ListFlags } from './list-paging.js';
export { type Bar, barChart, sparkline } from './render/charts.js';
export { createPalette, type Palette, shouldUseColor } from './render/colors.js';
export { type Change, diffValues, renderChanges } from './render/diff.js';
export { formatLocalTime } from './render/local-time.js';
export { type Column, renderTable, type TableOptions } from './render/table.js';
export { displayWidth, truncate } from './render/text-width.js';
export { runCli } from './run-cli.js';
export { resolveServiceConfig, type ServiceConfig } from './service-config.js';
export { SeenIds } from './tail/seen-ids.js';
export { CliFailure, CliUsageError } from './usage-error.js';
export { CLI_VERSION } from './version.js';
