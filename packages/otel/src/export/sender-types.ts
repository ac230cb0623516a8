import type { DiagLogger } from '@opentelemetry/api';
import type { PipelineDebug } from '../debug/pipeline-debug.js';
import type { BackoffPolicy } from './backoff.js';

/**
 * Sends one batch, each trace as the UTF-8 JSON the queue holds (so a retry never re-serialises);
 * rejects with an `@aqm/client` error on failure. `signal` aborts the request.
 */
export type SubmitBatch = (traces: readonly Uint8Array[], signal: AbortSignal) => Promise<unknown>;

/** The sender's clock, randomness and waits; tests replace them to make time deterministic. */
export interface SenderTiming {
  backoff: BackoffPolicy;
  random: () => number;
  now: () => number;
  /** Waits `ms`, or less when a signal aborts; never rejects. */
  sleep: (ms: number, signals: readonly AbortSignal[]) => Promise<void>;
  /** At most one report per kind of drop in this interval. */
  reportIntervalMs: number;
}

/** Settings of a {@link TraceSender}. */
export interface SenderOptions {
  submit: SubmitBatch;
  /** Named in the message that says what to fix on 404. */
  applicationId: string;
  concurrency: number;
  maxBatchTraces: number;
  maxBatchBytes: number;
  /**
   * Longest a partial batch waits for more traces before it is sent; 0 sends at once; `Infinity`
   * until a flush (or shutdown, or the batch fills).
   */
  batchDelayMs: number;
  maxQueueTraces: number;
  maxQueueBytes: number;
  maxRetryElapsedMs: number;
  /** Starting point of the harder cuts when a single trace is too large. */
  maxValueChars: number;
  timing?: Partial<SenderTiming>;
  logger?: DiagLogger;
  /** Where what memory cannot keep goes instead of being dropped (`persistDir`); none by default. */
  overflow?: OverflowStore;
  /** `persistMode: 'write-ahead'`: each accepted trace is logged to disk before `enqueue()` returns. */
  writeAhead?: WriteAheadStore | undefined;
  /**
   * The caller admits only what fits (aqm-forwarder, before it answers 200): a record past the
   * bounds that the disk cannot take is kept in memory over them rather than dropped, since the
   * caller's size estimate, made before mapping, can be short. Default `false`.
   */
  keepOverBound?: boolean;
  /** Debug lines (each request's outcome, each drop); absent when debug is off. */
  debug?: PipelineDebug | undefined;
}

/** The sender's view of the disk behind its queue. */
export interface OverflowStore {
  /** Whether the disk takes writes now. */
  readonly writable: boolean;
  /** Whether `bytes` of new records may wait for the disk now (its write buffer is bounded). */
  canBuffer(bytes: number): boolean;
  /**
   * Writes records; resolves true once they are on disk, false when the disk refused them. `why`
   * (a fixed phrase, never the service's words) says what sends them there, for the line that says so.
   */
  write(
    records: readonly (
      | { traceId: string; body: Buffer }
      | { traceId: string; json: string; bytes: number }
    )[],
    why?: string,
  ): Promise<boolean>;
  /** The sender has room again, or the service answered. */
  poke(): void;
}

/** The sender's view of the write-ahead log (see `spill/write-ahead-log.ts`). */
export interface WriteAheadStore {
  /** Whether the log takes writes now (false for a while after the disk refused one). */
  readonly writable: boolean;
  /** Whether a record of `bytes` that memory cannot hold fits on disk now. */
  canKeep(bytes: number): boolean;
  /** Logs a record memory holds; returns what to call once it settled, `undefined` when the log is off. */
  logHeld(traceId: string, body: Buffer): (() => void) | undefined;
  /** Logs a record memory cannot hold (on disk only from then on); `'full'` past `maxDiskBytes`, `'off'` when refused. */
  logOverflow(traceId: string, json: string, bytes: number): 'logged' | 'full' | 'off';
}

/** Counters of the sender, part of `stats()`. */
export interface SenderStats {
  /** Traces the service accepted. */
  exportedTraces: number;
  /** Traces given up, in total and by reason (`queue-full`, `retries-exhausted`, `too-large`, `rejected`, `shutdown`, `failed`, `disk-full`). */
  droppedTraces: { total: number; byReason: Record<string, number> };
  /** Requests sent again after a failure that might pass (outage, timeout, 429, 5xx, or a probe while paused). */
  retries: number;
  /** Traces held: waiting for a batch and in flight. */
  queuedTraces: number;
  /** JSON bytes of the traces held. */
  queuedBytes: number;
  /** Traces in batches being sent or waiting to be retried. */
  inFlight: number;
}
