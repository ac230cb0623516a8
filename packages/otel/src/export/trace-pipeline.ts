import type { EvaluationTrace } from '@aqm/wire';
import type { DiagLogger } from '@opentelemetry/api';
import { TraceAssembler, type TraceGroup } from '../assembly/trace-assembler.js';
import { createPipelineDebug } from '../debug/create-debug.js';
import type { PipelineDebug } from '../debug/pipeline-debug.js';
import { alert, aqmDiag } from '../diag.js';
import { prepareTraceRecord, type RecordOptions } from '../mapping/build-record.js';
import type { LlmLogRecord } from '../mapping/llm-log-record.js';
import type { ResolvedOptions } from '../options.js';
import { isSampledIn } from '../privacy/sampling.js';
import type { ReadableSpan } from '../sdk-types.js';
import { DiskSpill } from '../spill/disk-spill.js';
import { DeliveryHealth } from './delivery-health.js';
import type { AqmStats, Pipeline, PipelineInternals } from './pipeline-types.js';
import type { DeliveryOutcome } from './queued-trace.js';
import { createClient, createSubmit, type EvaluationsClient } from './service-submit.js';
import { ThrottledReporter } from './throttled-reporter.js';
import { TraceSender } from './trace-sender.js';

/**
 * What the exporter and the processor share: spans go into the assembler; each completed trace is
 * sampled, mapped to a record, offered to `shouldExport` and queued in the sender. Nothing here
 * throws into the app.
 */
export type { AqmStats, PipelineInternals };

export class TracePipeline implements Pipeline {
  readonly enabled = true;
  readonly #options: ResolvedOptions;
  readonly #logger: DiagLogger;
  readonly #reporter: ThrottledReporter;
  readonly #client: EvaluationsClient;
  readonly #ownsClient: boolean;
  readonly #assembler: TraceAssembler;
  readonly #sender: TraceSender;
  readonly #health: DeliveryHealth;
  readonly #spill: DiskSpill | undefined;
  readonly #recordOptions: RecordOptions;
  /** Debug lines; `undefined` when debug is off (then nothing is built for them). */
  readonly #debug: PipelineDebug | undefined;
  readonly #applicationLabel: () => string;
  /** Tickets of the traces completed during the current `addSpans()` call. */
  #collector: Promise<DeliveryOutcome>[] | undefined;
  /**
   * Tickets of traces completed outside an `addSpans()` call (by the idle timer or a flush), handed
   * to the next call so the exporter's next callback waits for them too. Bounded: at most
   * `maxOpenTraces` traces can complete between two calls.
   */
  #completedMeanwhile: Promise<DeliveryOutcome>[] = [];
  #skipped = 0;
  #sampledOut = 0;
  #filtered = 0;
  /** Traces whose instrumentation-openai spans got no content (see `tracesWithoutContent`). */
  #withoutContent = 0;
  #shutdownPromise: Promise<void> | undefined;

  constructor(options: ResolvedOptions, internals: PipelineInternals = {}) {
    this.#options = options;
    this.#logger = internals.logger ?? aqmDiag;
    this.#debug = createPipelineDebug(internals.debug, internals.env ?? process.env, this.#logger);
    this.#reporter = new ThrottledReporter(this.#logger, internals.timing?.reportIntervalMs ?? 60_000);
    this.#ownsClient = options.client === undefined;
    this.#client = createClient(options);
    const apiKey = options.apiKey;
    this.#health = new DeliveryHealth({
      logger: this.#logger,
      now: internals.timing?.now ?? Date.now,
      redact: (text) =>
        apiKey === undefined || apiKey === '' ? text : text.replaceAll(apiKey, '[redacted]'),
      describeQueue: () => {
        const { queuedTraces, queuedBytes } = this.#sender.stats();
        return `${queuedTraces} held, ${queuedBytes} bytes; maxQueueBytes ${options.maxQueueBytes}`;
      },
      applicationLabel: () => applicationId.label,
    });
    const { submit, applicationId } = createSubmit(this.#client, options, this.#health, this.#logger);
    this.#spill =
      options.persistDir === undefined
        ? undefined
        : new DiskSpill({
            dir: options.persistDir,
            maxDiskBytes: options.maxDiskBytes,
            maxBatchTraces: options.maxBatchTraces,
            maxBatchBytes: options.maxBatchBytes,
            batchDelayMs: options.batchDelayMs,
            logger: this.#logger,
            debug: this.#debug,
          });
    this.#sender = new TraceSender({
      ...options,
      overflow: this.#spill,
      keepOverBound: internals.keepOverBound === true,
      // A getter: the 404 message names the id, which may only be known later.
      get applicationId() {
        return applicationId.label;
      },
      submit,
      timing: internals.timing,
      logger: this.#logger,
      debug: this.#debug,
    });
    this.#spill?.attach(this.#sender);
    this.#applicationLabel = () => applicationId.label;
    this.#debug?.config(options, applicationId.label);
    this.#recordOptions = {
      environment: options.environment,
      appVersion: options.appVersion,
      maxValueChars: options.maxValueChars,
      mask: options.mask,
      contentLoss: { logger: this.#logger, receivesOtlp: internals.receivesOtlp === true },
    };
    this.#assembler = new TraceAssembler({
      traceIdleMs: options.traceIdleMs,
      maxSpansPerTrace: options.maxSpansPerTrace,
      maxOpenTraces: options.maxOpenTraces,
      maxOpenModelCalls: options.maxOpenTraces,
      // Open traces count against the same bound as the queue: a root that never ends must not
      // let them grow past it.
      maxValueChars: options.maxValueChars,
      maxOpenBytes: options.maxQueueBytes,
      // Spans left out of a record lose data: said on stderr even with no logging set up.
      onNotice: (kind, message) =>
        this.#reporter.report(kind, 'warn', message, (level, text) => alert(this.#logger, level, kind, text)),
      onComplete: (group) => this.#onComplete(group),
    });
  }

  /** The application id for messages (`(not resolved yet)` while a promised id is pending). */
  get applicationLabel(): string {
    return this.#applicationLabel();
  }

  /** Why nothing can be delivered now (the last request got 401 or 404), or `undefined`. */
  get blocked(): string | undefined {
    return this.#health.blocked;
  }

  /** Calls `listener` when a request finds delivery impossible (401/404); returns the remover. */
  onBlocked(listener: (reason: string) => void): () => void {
    return this.#health.onBlocked(listener);
  }

  /** Whether `shutdown()` was called. */
  get isShutdown(): boolean {
    return this.#shutdownPromise !== undefined;
  }

  /**
   * Feeds spans to the assembler; returns the tickets of the traces these spans completed (or that
   * completed meanwhile), so `export()` can wait for exactly those. Synchronous, never throws.
   */
  addSpans(spans: readonly ReadableSpan[]): Promise<DeliveryOutcome>[] {
    if (this.isShutdown) return [];
    const previous = this.#collector;
    const collected = this.#completedMeanwhile;
    this.#completedMeanwhile = [];
    this.#collector = collected;
    try {
      this.#assembler.addSpans(spans);
    } catch (error) {
      this.#reporter.report('assembler', 'error', `Spans could not be assembled: ${String(error)}`);
    } finally {
      this.#collector = previous;
    }
    return collected;
  }

  /**
   * A model call's span started: a trace whose root ends before it waits for it, and is recorded
   * with it as it is (failed) if it never ends. Synchronous, never throws.
   */
  modelCallStarted(span: ReadableSpan): void {
    if (this.isShutdown) return;
    try {
      this.#assembler.modelCallStarted(span);
    } catch (error) {
      this.#reporter.report('assembler', 'error', `A started span could not be read: ${String(error)}`);
    }
  }

  /** Sends every queued trace without waiting for its batch to fill (for a caller awaiting delivery). */
  sendNow(): void {
    this.#sender.sendNow();
  }

  /** Joins a content log record to its trace. Never throws. */
  addLog(log: LlmLogRecord): void {
    if (this.isShutdown) return;
    try {
      this.#assembler.addLog(log);
    } catch (error) {
      this.#reporter.report('assembler', 'error', `A log record could not be joined: ${String(error)}`);
    }
  }

  /**
   * Completes every open trace and resolves once everything queued is accepted or given up, or as
   * soon as a request finds delivery impossible (401/404: the traces stay queued for when it is
   * fixed). While sending is paused, the flush sends one probe at once rather than at its backoff.
   */
  async forceFlush(): Promise<void> {
    if (!this.isShutdown) {
      try {
        this.#assembler.flushAll();
      } catch (error) {
        this.#reporter.report('assembler', 'error', `Open traces could not be completed: ${String(error)}`);
      }
    }
    let stopWaiting = () => {};
    const blocked = new Promise<void>((resolve) => {
      stopWaiting = this.#health.onBlocked(() => resolve());
    });
    try {
      // The flush keeps the process alive while it waits: it must stop doing so when we stop waiting.
      await this.#sender.flush(blocked);
    } finally {
      stopWaiting();
    }
  }

  /** Flushes within `shutdownTimeoutMs`, then closes the connection pool (of a client it created). Never rejects. */
  shutdown(): Promise<void> {
    this.#shutdownPromise ??= this.#shutdown();
    return this.#shutdownPromise;
  }

  /** The pipeline's counters. */
  stats(): AqmStats {
    const assembly = this.#assembler.stats();
    const stats: AqmStats = {
      ...this.#sender.stats(),
      openTraces: assembly.openTraces,
      openTraceBytes: assembly.openTraceBytes,
      evictedForBytes: assembly.evictedForBytes,
      skippedTraces: this.#skipped,
      sampledOutTraces: this.#sampledOut,
      filteredTraces: this.#filtered,
      tracesWithoutContent: this.#withoutContent,
    };
    if (this.#spill !== undefined) {
      stats.disk = this.#spill.stats();
      const evicted = this.#spill.evictedTraces;
      if (evicted > 0) {
        stats.droppedTraces.total += evicted;
        stats.droppedTraces.byReason['disk-full'] = evicted;
      }
    }
    return stats;
  }

  async #shutdown(): Promise<void> {
    const startedAt = Date.now();
    try {
      this.#assembler.flushAll();
      this.#assembler.shutdown();
    } catch (error) {
      this.#reporter.report(
        'assembler',
        'error',
        `Open traces could not be completed at shutdown: ${String(error)}`,
      );
    }
    this.#health.shutdownStarted();
    const droppedBefore = this.#sender.stats().droppedTraces.byReason.shutdown ?? 0;
    await this.#sender.shutdown(this.#options.shutdownTimeoutMs);
    const dropped = (this.#sender.stats().droppedTraces.byReason.shutdown ?? 0) - droppedBefore;
    this.#health.undeliveredAtShutdown(dropped);
    // Bounded too: a disk that hangs must not hold shutdown (at least 1 s for the last writes).
    await this.#spill?.close(Math.max(1000, this.#options.shutdownTimeoutMs - (Date.now() - startedAt)));
    if (this.#ownsClient && this.#client.close !== undefined) {
      const left = Math.max(100, this.#options.shutdownTimeoutMs - (Date.now() - startedAt));
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, left);
      });
      try {
        await Promise.race([Promise.resolve(this.#client.close()), deadline]);
      } catch (error) {
        this.#logger.warn(`Closing the connection pool failed: ${String(error)}`);
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /** A completed trace: sample, map, filter, queue. Runs inside `addSpans()` or the assembler's idle timer. */
  #onComplete(group: TraceGroup): void {
    try {
      if (!isSampledIn(group.traceId, this.#options.sampleRate)) {
        this.#sampledOut += 1;
        this.#debug?.skipped(group.traceId, `sampled out (sampleRate ${this.#options.sampleRate})`);
        return;
      }
      const pending = prepareTraceRecord(group.spans, group.logs, this.#recordOptions);
      if (pending === undefined) {
        this.#skipped += 1;
        this.#debug?.noLlmSpan(group.traceId, group.spans);
        // No record made: LLM spans of this trace that end later (after the app's span) start it again.
        this.#assembler.forget(group.traceId);
        return;
      }
      if (pending.contentLoss !== undefined) this.#withoutContent += 1;
      // A full queue refuses the trace before the costly half of mapping: an outage must not
      // make every ended trace cost the app a record it will drop at once.
      const refused = this.#sender.refuseIfFull(pending.minBytes, group.traceId);
      if (refused !== undefined) {
        this.#collect(refused);
        return;
      }
      const record = pending.build();
      if (record === undefined) {
        this.#reporter.report('map', 'error', `Trace ${group.traceId} could not be mapped`);
        return;
      }
      if (!this.#shouldExport(record)) {
        this.#filtered += 1;
        this.#debug?.skipped(group.traceId, 'shouldExport returned false');
        return;
      }
      this.#debug?.queued(record);
      const ticket = this.#sender.enqueue(record);
      this.#collect(ticket);
    } catch (error) {
      this.#reporter.report('map', 'error', `Trace ${group.traceId} could not be mapped: ${String(error)}`);
    }
  }

  #collect(ticket: Promise<DeliveryOutcome>): void {
    (this.#collector ?? this.#completedMeanwhile).push(ticket);
  }

  /** Asks `shouldExport`; a predicate that throws keeps the record (losing data silently is worse). */
  #shouldExport(record: EvaluationTrace): boolean {
    const predicate = this.#options.shouldExport;
    if (predicate === undefined) return true;
    try {
      return predicate(record) !== false;
    } catch (error) {
      this.#reporter.report(
        'should-export',
        'warn',
        `shouldExport threw for trace ${record.traceId}, so the record is sent: ${String(error)}`,
      );
      return true;
    }
  }
}
