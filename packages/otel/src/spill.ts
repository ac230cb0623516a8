/**
 * `@aqm/otel/spill`: look at and empty a `persistDir` folder without loading OpenTelemetry (used
 * by `aqm spill status|purge`).
 * @packageDocumentation
 */
export {
  inspectSpillFolder,
  purgeSpillFolder,
  type SpillFolderReport,
  type SpillOwnerReport,
  type SpillPurgeResult,
  type SpillTotals,
  type WriteAheadTotals,
} from './spill/spill-inventory.js';
export { SpillFolderRefused } from './spill/spill-paths.js';
