import type { LlmLogRecord } from '../mapping/llm-log-record.js';
import type { ReadableSpan } from '../sdk-types.js';

/** Why a trace was handed over. */
export type CompletionReason = 'root-ended' | 'idle' | 'max-spans' | 'evicted' | 'flush';

/** A completed trace: its spans, the log records joined to it, and why it completed. */
export interface TraceGroup {
  traceId: string;
  spans: ReadableSpan[];
  logs: LlmLogRecord[];
  reason: CompletionReason;
}

/** Options of {@link TraceAssembler}. */
export interface AssemblerOptions {
  /** A trace with no new span for this long is complete. */
  traceIdleMs: number;
  /** A trace is complete when it holds this many spans; later spans of it are counted late. */
  maxSpansPerTrace: number;
  /** Past this many open traces, the oldest is completed as it is (reason `evicted`). */
  maxOpenTraces: number;
  /** Receives each completed trace, synchronously. Errors it throws are counted and swallowed. */
  onComplete: (group: TraceGroup) => void;
  /** Clock (ms), for tests. Defaults to `Date.now`. */
  now?: () => number;
  /** Log records kept per trace (default 1000); more are dropped and counted. */
  maxLogsPerTrace?: number;
  /** Completed trace ids remembered to recognise late spans (default 10,000). */
  recentTraceIds?: number;
  /** Cut longer text values of spans and logs as they arrive (default: nothing is cut). */
  maxValueChars?: number;
  /** Past this many bytes held by open traces, the oldest are completed as they are (default: no bound). */
  maxOpenBytes?: number;
  /**
   * Model calls whose span has started and not ended that are remembered (default `maxOpenTraces`);
   * past it the oldest is forgotten (said once). See `TraceAssembler.modelCallStarted`.
   */
  maxOpenModelCalls?: number;
  /**
   * How long a trace whose root ended waits for a model call still open (at least `traceIdleMs`;
   * default {@link UNFINISHED_CALL_WAIT_MS}) before it is recorded with the call as it is.
   */
  unfinishedCallWaitMs?: number;
  /**
   * `false`: no timer ever completes a trace (idle traces, and those waiting for a model call,
   * complete only at `flushAll()`, eviction or `maxSpansPerTrace`), for a process that may be
   * frozen between requests (`serverless`). Default `true`.
   */
  idleTimer?: boolean;
  /** Told (synchronously, never throwing into the assembler) what the app should hear of once. */
  onNotice?: (kind: AssemblerNotice, message: string) => void;
}

/** Counters of {@link TraceAssembler}. */
export interface AssemblerStats {
  openTraces: number;
  /** Spans of already completed traces, dropped (re-sending would replace the fuller record). */
  lateSpans: number;
  /** Traces completed early because `maxOpenTraces` was reached. */
  evictedTraces: number;
  /** Log records of already completed traces, dropped. */
  lateLogs: number;
  /** Log records dropped past `maxLogsPerTrace`, or whose span never arrived. */
  droppedLogs: number;
  /** Times `onComplete` threw. */
  callbackErrors: number;
  /** Model calls recorded with their span still open (it had not ended when the trace completed). */
  unfinishedCalls: number;
  /** Spans remembered as model calls that have started and not ended (see `modelCallStarted`). */
  openModelCalls: number;
  /** Estimated bytes held by open traces. */
  openTraceBytes: number;
  /** Open traces completed early because of `maxOpenBytes`. */
  evictedForBytes: number;
}

/**
 * Log records usually arrive before their span is exported (a `BatchSpanProcessor` holds spans for
 * seconds); a trace known only from logs waits at least this long for its spans.
 */
export const LOG_ONLY_WAIT_MS = 30_000;
/**
 * A stream handed back by the request (a Next.js route returning the model's stream) outlives its
 * root span by as long as the model takes to answer: a trace waiting for a model call gives it
 * this long before taking it for failed, so a long answer is not recorded as an error.
 */
export const UNFINISHED_CALL_WAIT_MS = 30_000;
export const DEFAULT_MAX_LOGS_PER_TRACE = 1000;
export const DEFAULT_RECENT_TRACE_IDS = 10_000;

export function describeValue(value: unknown): string {
  return typeof value === 'string' ? `"${value}" (string)` : `${String(value)} (${typeof value})`;
}

export function checkInteger(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new TypeError(`Expected \`${name}\` to be an integer >= ${min}, got ${describeValue(value)}`);
  }
  return value;
}

/** What the assembler tells its owner about: spans it could not put in a trace's record. */
export type AssemblerNotice = 'max-spans' | 'open-bytes' | 'late-spans' | 'unfinished-calls' | 'open-calls';
