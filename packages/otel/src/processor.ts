import { type Context, type Span, TraceFlags } from '@opentelemetry/api';
import { ACCEPT_LLM_LOG, type LlmLogSink } from './export/llm-log-sink.js';
import type { AqmStats, Pipeline, PipelineInternals } from './export/pipeline-types.js';
import { SHUTDOWN_WITHIN, type ShutsDownWithin } from './export/shutdown-within.js';
import type { LlmLogRecord } from './mapping/llm-log-record.js';
import { setsKindAfterStart, startsAsModelCall } from './mapping/model-call-at-start.js';
import type { AqmOtelOptions } from './options.js';
import type { ReadableSpan, SpanProcessor } from './sdk-types.js';
import { createPipeline } from './setup/create-pipeline.js';
import { STAMPS_AQM_ATTRIBUTES, stampSpan } from './trace-attributes/stamp.js';

/**
 * A `SpanProcessor` to add to any tracer provider, batching included (it is not a wrapper around
 * a `BatchSpanProcessor`): `onEnd()` only assembles, and each trace with an LLM interaction goes
 * to the service as a prompt/response record through a bounded retrying queue.
 *
 * @example
 * const provider = new NodeTracerProvider({ spanProcessors: [new AqmSpanProcessor()] });
 * provider.register();
 */
export class AqmSpanProcessor implements SpanProcessor, LlmLogSink, ShutsDownWithin {
  readonly #pipeline: Pipeline;
  /** @internal It gives starting spans the `withAqmAttributes` values: no other processor needs to. */
  readonly [STAMPS_AQM_ATTRIBUTES] = true;

  /**
   * @param options - connection and knobs; see {@link AqmOtelOptions}. Throws when one of them is
   *   invalid (naming it). Never throws for the environment: when `OTEL_SDK_DISABLED` or
   *   `AQM_DISABLED` is true, or the API key, base URL or application id is missing from both
   *   options and environment (or unusable there), it does nothing (with one warning naming what
   *   is missing); see {@link AqmSpanProcessor.enabled}.
   * @param internals - test seams, not part of the API.
   */
  constructor(options: AqmOtelOptions = {}, internals?: PipelineInternals) {
    this.#pipeline = createPipeline('AqmSpanProcessor', options, internals).pipeline;
  }

  /** Whether traces are sent: `false` when turned off or not configured (see the constructor). */
  get enabled(): boolean {
    return this.#pipeline.enabled;
  }

  /**
   * Remembers a span that starts as a model call, or from an instrumentation that sets its kind
   * just after (OpenInference); a few lookups and nothing else for any other span: OpenInference and Traceloop end a call's span only when it succeeds, so a failed
   * call's span never comes to `onEnd`. Its trace waits for it when its root ends, and is recorded
   * as an error with the span as it is when it never ends. Every span also gets the
   * `withAqmAttributes` values in effect in `parentContext`. Synchronous, never throws.
   */
  onStart(span: Span, parentContext?: Context): void {
    if (parentContext !== undefined) stampSpan(span, parentContext);
    try {
      const attributes = (span as Partial<ReadableSpan>).attributes;
      if (attributes === undefined || attributes === null) return;
      if (!startsAsModelCall(attributes) && !setsKindAfterStart(span as Partial<ReadableSpan>)) return;
      if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    } catch {
      return; // not a span we can read: never the app's problem
    }
    this.#pipeline.modelCallStarted(span as unknown as ReadableSpan);
  }

  /**
   * Takes an ended, sampled span into its trace. Synchronous: never waits on the network.
   *
   * @example
   * processor.onEnd(span);
   */
  onEnd(span: ReadableSpan): void {
    try {
      if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    } catch {
      return; // not a span we can read (null, or a span context that throws): never the app's problem
    }
    this.#pipeline.addSpans([span]);
  }

  /**
   * Completes every open trace and resolves once everything queued before the call was accepted
   * by the service or given up, or as soon as delivery is known to be impossible (401/404: the
   * traces stay queued and go once the key or application is fixed), or at `flushTimeoutMs`
   * (default 30 s): then what is still held is written to `persistDir`, or stays queued in memory
   * without one (lost if the process exits first), and a warning says which. Never rejects.
   *
   * @example
   * await processor.forceFlush();
   */
  forceFlush(): Promise<void> {
    return this.#pipeline.forceFlush();
  }

  /**
   * Sends what is held within `shutdownTimeoutMs` (aborting requests at the deadline), then closes
   * the connection pool. Never rejects.
   *
   * @example
   * await processor.shutdown();
   */
  shutdown(): Promise<void> {
    return this.#pipeline.shutdown();
  }

  /**
   * Counters: exported, dropped by reason, retries, queue size and bytes, in flight, open traces.
   *
   * @example
   * const { exportedTraces, queuedTraces } = processor.stats();
   */
  stats(): AqmStats {
    return this.#pipeline.stats();
  }

  /** @internal Shuts down within `timeoutMs` rather than `shutdownTimeoutMs` (the exit flush's last share). */
  [SHUTDOWN_WITHIN](timeoutMs: number): Promise<void> {
    return this.#pipeline.shutdown(timeoutMs);
  }

  /** @internal Joins a content log record (from {@link AqmLogRecordProcessor}) to its trace. */
  [ACCEPT_LLM_LOG](log: LlmLogRecord): void {
    this.#pipeline.addLog(log);
  }
}
