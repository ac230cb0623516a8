import { ACCEPT_LLM_LOG, type LlmLogSink } from './export/llm-log-sink.js';
import type { AqmStats, Pipeline, PipelineInternals } from './export/pipeline-types.js';
import type { DeliveryOutcome } from './export/queued-trace.js';
import { type AqmExportResult, ExportResultCode } from './export/result-code.js';
import type { LlmLogRecord } from './mapping/llm-log-record.js';
import type { AqmOtelOptions } from './options.js';
import type { ReadableSpan, SpanExporter } from './sdk-types.js';
import { createPipeline } from './setup/create-pipeline.js';

/**
 * A `SpanExporter` for a `BatchSpanProcessor` (or `SimpleSpanProcessor`): it assembles the spans
 * into traces and sends each trace with an LLM interaction to the service as a prompt/response
 * record, through a bounded retrying queue.
 *
 * `export()` never waits on the network itself, but it calls back only once the traces completed
 * by that call were accepted by the service or given up (at most `exportTimeoutMs`), because the
 * stock `BatchSpanProcessor` never calls an exporter's `forceFlush()`: this makes
 * `provider.forceFlush()` mean "delivered".
 *
 * @example
 * const provider = new NodeTracerProvider({
 *   spanProcessors: [new BatchSpanProcessor(new AqmSpanExporter())],
 * });
 */
export class AqmSpanExporter implements SpanExporter, LlmLogSink {
  readonly #pipeline: Pipeline;
  readonly #exportTimeoutMs: number;

  /**
   * @param options - connection and knobs; see {@link AqmOtelOptions}. Throws when one of them is
   *   invalid (naming it). Never throws for the environment: when `OTEL_SDK_DISABLED` or
   *   `AQM_DISABLED` is true, or the API key, base URL or application id is missing from both
   *   options and environment (or unusable there), it does nothing (with one warning naming what
   *   is missing); see {@link AqmSpanExporter.enabled}.
   * @param internals - test seams, not part of the API.
   */
  constructor(options: AqmOtelOptions = {}, internals?: PipelineInternals) {
    const setup = createPipeline('AqmSpanExporter', options, internals);
    this.#exportTimeoutMs = setup.options?.exportTimeoutMs ?? 0;
    this.#pipeline = setup.pipeline;
  }

  /** Whether traces are sent: `false` when turned off or not configured (see the constructor). */
  get enabled(): boolean {
    return this.#pipeline.enabled;
  }

  /**
   * Assembles `spans` and calls back once the traces they complete (and those the idle timer
   * completed since the previous call) were accepted (SUCCESS) or
   * one was given up or `exportTimeoutMs` passed (FAILED; the traces stay queued). When delivery
   * is known to be impossible (the service answered 401 or 404) it reports FAILED at once, the
   * traces staying queued for when it is fixed. After `shutdown()` it reports FAILED at once.
   * Never throws.
   *
   * @example
   * exporter.export(spans, (result) => console.log(result.code));
   */
  export(spans: ReadableSpan[], resultCallback: (result: AqmExportResult) => void): void {
    const callback = once(resultCallback);
    try {
      this.#export(spans, callback);
    } catch (error) {
      callback({
        code: ExportResultCode.FAILED,
        error: error instanceof Error ? error : new Error(String(error)),
      });
    }
  }

  #export(spans: ReadableSpan[], callback: (result: AqmExportResult) => void): void {
    if (this.#pipeline.isShutdown) {
      callback({
        code: ExportResultCode.FAILED,
        error: new Error('AqmSpanExporter is shut down; spans not exported'),
      });
      return;
    }
    const tickets = this.#pipeline.addSpans(Array.isArray(spans) ? spans : []);
    if (tickets.length === 0) {
      callback({ code: ExportResultCode.SUCCESS });
      return;
    }
    // The SDK's batch processor already batched these spans and waits for this callback before
    // its next export: holding them back to fill a batch would only delay it.
    this.#pipeline.sendNow();
    const blocked = this.#pipeline.blocked;
    if (blocked !== undefined) {
      callback({ code: ExportResultCode.FAILED, error: undeliverable(tickets.length, blocked) });
      return;
    }
    const stopWaiting = this.#pipeline.onBlocked((reason) =>
      callback({ code: ExportResultCode.FAILED, error: undeliverable(tickets.length, reason) }),
    );
    waitForTickets(tickets, this.#exportTimeoutMs, (result) => {
      stopWaiting();
      callback(result);
    });
  }

  /**
   * Completes every open trace and resolves once all queued traces were accepted or given up, or
   * at `flushTimeoutMs`: then what is still held is written to `persistDir`, or stays queued in
   * memory without one, and a warning says which. Never rejects.
   *
   * @example
   * await exporter.forceFlush();
   */
  forceFlush(): Promise<void> {
    return this.#pipeline.forceFlush();
  }

  /**
   * Sends what is held within `shutdownTimeoutMs` (aborting requests at the deadline), then closes
   * the connection pool. Never rejects.
   *
   * @example
   * await exporter.shutdown();
   */
  shutdown(): Promise<void> {
    return this.#pipeline.shutdown();
  }

  /**
   * Counters: exported, dropped by reason, retries, queue size and bytes, in flight, open traces.
   *
   * @example
   * const { droppedTraces } = exporter.stats();
   */
  stats(): AqmStats {
    return this.#pipeline.stats();
  }

  /** @internal Joins a content log record (from {@link AqmLogRecordProcessor}) to its trace. */
  [ACCEPT_LLM_LOG](log: LlmLogRecord): void {
    this.#pipeline.addLog(log);
  }
}

function undeliverable(count: number, reason: string): Error {
  return new Error(
    `${count} trace(s) cannot be delivered now (${reason}); they stay queued and go once the API key or ` +
      'application id is fixed',
  );
}

/** Wraps a callback so it runs at most once and can never throw into us. */
function once(callback: (result: AqmExportResult) => void): (result: AqmExportResult) => void {
  let called = false;
  return (result) => {
    if (called) return;
    called = true;
    try {
      callback(result);
    } catch {
      // The caller's callback failing is the caller's business; we must not throw into the SDK.
    }
  };
}

/** Calls back when every ticket settled, or at the deadline with what is still pending. */
function waitForTickets(
  tickets: readonly Promise<DeliveryOutcome>[],
  timeoutMs: number,
  callback: (result: AqmExportResult) => void,
): void {
  let settled = 0;
  let dropped = 0;
  const finish = () => {
    clearTimeout(timer);
    if (settled < tickets.length) {
      callback({
        code: ExportResultCode.FAILED,
        error: new Error(
          `${tickets.length - settled} of ${tickets.length} trace(s) not yet accepted by the AQM service after ` +
            `exportTimeoutMs (${timeoutMs} ms); they stay queued and are retried` +
            (dropped > 0 ? `; ${dropped} were dropped` : ''),
        ),
      });
    } else if (dropped > 0) {
      callback({
        code: ExportResultCode.FAILED,
        error: new Error(`${dropped} of ${tickets.length} trace(s) were dropped (see stats().droppedTraces)`),
      });
    } else {
      callback({ code: ExportResultCode.SUCCESS });
    }
  };
  // Unref'd: the BatchSpanProcessor keeps its own (ref'd) export timeout while it waits.
  const timer = setTimeout(finish, timeoutMs);
  timer.unref();
  for (const ticket of tickets) {
    void ticket.then((outcome) => {
      settled += 1;
      if (outcome === 'dropped') dropped += 1;
      if (settled === tickets.length) finish();
    });
  }
}
