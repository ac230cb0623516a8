import type { DiagLogger } from '@opentelemetry/api';
import type { PipelineDebug } from '../debug/pipeline-debug.js';

/** Settings of a {@link DiskSpill}. */
export interface DiskSpillOptions {
  dir: string;
  maxDiskBytes: number;
  /** A file holds at most one request's worth. */
  maxBatchTraces: number;
  maxBatchBytes: number;
  /** How long a partial file waits for more records (`batchDelayMs`). */
  batchDelayMs: number;
  logger: DiagLogger;
  /** How long to stay in memory only after the disk refused a write (default 30 s; tests shorten it). */
  retryMs?: number;
  /** Debug lines (each write and replay); absent when debug is off. */
  debug?: PipelineDebug | undefined;
  /** `persistMode: 'write-ahead'`: every trace is logged before it counts as accepted. */
  writeAhead?: boolean;
}
