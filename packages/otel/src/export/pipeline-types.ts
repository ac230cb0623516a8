import type { DiagLogger } from '@opentelemetry/api';
import type { DebugSink } from '../debug/debug-switch.js';
import type { LlmLogRecord } from '../mapping/llm-log-record.js';
import type { ReadableSpan } from '../sdk-types.js';
import type { DiskStats } from '../spill/spill-ledger.js';
import type { DeliveryOutcome } from './queued-trace.js';
import type { SenderStats, SenderTiming } from './sender-types.js';

/**
 * Test seams of the exporter and processor: deterministic time for the retry schedule and a
 * logger. Not part of the documented API.
 * @internal
 */
export interface PipelineInternals {
  timing?: Partial<SenderTiming>;
  logger?: DiagLogger;
  /** The environment read for `AQM_*` and the off switches (default `process.env`). */
  env?: Record<string, string | undefined>;
  /**
   * Set by aqm-forwarder, which admits only what fits before it answers 200: a trace it admitted
   * is kept over the queue bounds (when the disk cannot take it) rather than dropped as `queue-full`.
   */
  keepOverBound?: boolean;
  /**
   * Where the debug lines go (`false`: none); default: from `AQM_DEBUG` / `OTEL_LOG_LEVEL=debug`
   * in `env`. aqm-forwarder passes its own (its `--debug` flag has no variable).
   */
  debug?: DebugSink | false;
  /**
   * Set by aqm-forwarder, which receives spans and log records over OTLP: content lost for want of
   * log records is then the sending app's to fix, and the warning says so.
   */
  receivesOtlp?: boolean;
}

/** `stats()` of {@link AqmSpanExporter} and {@link AqmSpanProcessor}. */
export interface AqmStats extends SenderStats {
  /** Traces being assembled (waiting for their root span, the idle timeout or a flush). */
  openTraces: number;
  /** Bytes of text held by the traces being assembled (bounded by `maxQueueBytes`). */
  openTraceBytes: number;
  /** Open traces completed early because the bytes they held went over the bound. */
  evictedForBytes: number;
  /** Spans that ended after their trace's record was made: not in it (said on stderr). */
  lateSpans: number;
  /**
   * Model calls whose span had not ended when their trace was recorded (a failed call its
   * instrumentation never ended): recorded as errors, as they were then (said on stderr).
   */
  unfinishedCalls: number;
  /** Completed traces with no LLM span: not sent. */
  skippedTraces: number;
  /** Completed traces left out by `sampleRate`. */
  sampledOutTraces: number;
  /** Records `shouldExport` said no to. */
  filteredTraces: number;
  /**
   * Traces sent with an empty prompt and response because the spans of
   * `@opentelemetry/instrumentation-openai` in them got no content: no `gen_ai.*` log record joined
   * them, or the records carried none (content capture off). Said once on stderr too.
   */
  tracesWithoutContent: number;
  /** What `persistDir` holds and what went through it; absent when it is not set. */
  disk?: DiskStats;
}

/** What the processor and the exporter drive: the real pipeline, or the one that does nothing. */
export interface Pipeline {
  /** Whether traces are sent at all (`false` when turned off or not configured). */
  readonly enabled: boolean;
  readonly isShutdown: boolean;
  /** Why nothing can be delivered now (401/404), or `undefined`. */
  readonly blocked: string | undefined;
  /** Calls `listener` when a request finds delivery impossible; returns the remover. */
  onBlocked(listener: (reason: string) => void): () => void;
  addSpans(spans: readonly ReadableSpan[]): Promise<DeliveryOutcome>[];
  /** A model call's span started (the processor's `onStart`): its trace waits for it to end. */
  modelCallStarted(span: ReadableSpan): void;
  sendNow(): void;
  addLog(log: LlmLogRecord): void;
  forceFlush(): Promise<void>;
  /** Shuts down within `timeoutMs` (default: the `shutdownTimeoutMs` option). */
  shutdown(timeoutMs?: number): Promise<void>;
  stats(): AqmStats;
}

/** The stats of a pipeline that holds nothing. */
export function emptyStats(): AqmStats {
  return {
    exportedTraces: 0,
    droppedTraces: { total: 0, byReason: {} },
    retries: 0,
    queuedTraces: 0,
    queuedBytes: 0,
    inFlight: 0,
    openTraces: 0,
    openTraceBytes: 0,
    evictedForBytes: 0,
    lateSpans: 0,
    unfinishedCalls: 0,
    skippedTraces: 0,
    sampledOutTraces: 0,
    filteredTraces: 0,
    tracesWithoutContent: 0,
  };
}

/**
 * The pipeline of a component that is off (`OTEL_SDK_DISABLED`, `AQM_DISABLED`, or settings
 * missing from the environment): it takes spans and forgets them, and every call returns at once.
 */
export class DisabledPipeline implements Pipeline {
  readonly enabled = false;
  readonly blocked = undefined;
  #shutdown = false;

  constructor(
    /** Why it is off, for `diag`. */
    readonly reason: string,
  ) {}

  get isShutdown(): boolean {
    return this.#shutdown;
  }

  onBlocked(): () => void {
    return () => {};
  }

  addSpans(): Promise<DeliveryOutcome>[] {
    return [];
  }

  modelCallStarted(): void {}

  sendNow(): void {}

  addLog(): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    this.#shutdown = true;
    return Promise.resolve();
  }

  stats(): AqmStats {
    return emptyStats();
  }
}
