import type { DiagLogger } from '@opentelemetry/api';
import { EnvironmentConfigError } from '../connection-options.js';
import { debugSink } from '../debug/debug-switch.js';
import { alert, aqmDiag } from '../diag.js';
import { DisabledPipeline, type Pipeline, type PipelineInternals } from '../export/pipeline-types.js';
import { TracePipeline } from '../export/trace-pipeline.js';
import { type AqmOtelOptions, type ResolvedOptions, resolveOptions } from '../options.js';
import { reportDuplicateApis } from './duplicate-apis.js';
import { switchedOff } from './env-switches.js';

const SETUP_HINT =
  'Set AQM_API_KEY, AQM_BASE_URL and AQM_APPLICATION_ID (or pass apiKey, baseUrl and applicationId), ' +
  'or set AQM_DISABLED=true to turn @aqm/otel off without this warning.';

/** What a component starts with: its pipeline, and the checked options when it is on. */
export interface Setup {
  pipeline: Pipeline;
  options: ResolvedOptions | undefined;
}

/**
 * The pipeline of a processor or exporter. Options passed in code are always checked, and a bad
 * one throws naming it (a programmer's error). Everything else never throws: `OTEL_SDK_DISABLED`
 * or `AQM_DISABLED` give a pipeline that does nothing; so do connection settings missing from the
 * environment (or unusable there), with one warning that names them (see `alert`).
 */
export function createPipeline(
  component: string,
  options: AqmOtelOptions,
  internals: PipelineInternals = {},
): Setup {
  const env = internals.env ?? process.env;
  const logger = internals.logger ?? aqmDiag;
  const off = switchedOff(env);
  let resolved: ResolvedOptions;
  try {
    resolved = resolveOptions(options, env);
  } catch (error) {
    // Off or not: a bad value passed in code is the app's bug, reported the same way everywhere.
    if (!(error instanceof EnvironmentConfigError)) throw error;
    if (off !== undefined) return disabled(component, off.reason, off.warning, logger, env);
    return disabled(
      component,
      'not configured',
      `${component} is off, so no trace is sent: ${error.message}. ${SETUP_HINT}`,
      logger,
      env,
    );
  }
  if (off !== undefined) return disabled(component, off.reason, off.warning, logger, env);
  reportDuplicateApis(logger);
  return { pipeline: new TracePipeline(resolved, internals), options: resolved };
}

function disabled(
  component: string,
  reason: string,
  warning: string | undefined,
  logger: DiagLogger,
  env: Record<string, string | undefined>,
): Setup {
  debugSink(env, logger)?.(`config: ${component} is off (${reason}); no trace is sent`);
  if (warning === undefined) logger.info(`${component} is off (${reason}); no trace is sent.`);
  else alert(logger, 'warn', `off:${reason}`, warning);
  return { pipeline: new DisabledPipeline(reason), options: undefined };
}
