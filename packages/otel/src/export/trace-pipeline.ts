import type { DiagLogger } from '@opentelemetry/api';
import { TraceAssembler } from '../assembly/trace-assembler.js';
import { createPipelineDebug } from '../debug/create-debug.js';
import type { PipelineDebug } from '../debug/pipeline-debug.js';
import { alert, aqmDiag } from '../diag.js';
import type { LlmLogRecord } from '../mapping/llm-log-record.js';
import type { ResolvedOptions } from '../options.js';
import type { ReadableSpan } from '../sdk-types.js';
import { DiskSpill } from '../spill/disk-spill.js';
import { boundedFlush } from './bounded-flush.js';
import { DeliveryHealth } from './delivery-health.js';
import { DeliveryTickets } from './delivery-tickets.js';
import { shutDownPipeline } from './pipeline-shutdown.js';
import type { AqmStats, Pipeline, PipelineInternals } from './pipeline-types.js';
import type { DeliveryOutcome } from './queued-trace.js';
import { createClient, createSubmit, type EvaluationsClient } from './service-submit.js';
import { ThrottledReporter } from './throttled-reporter.js';
import { TraceIntake } from './trace-intake.js';
import { TraceSender } from './trace-sender.js';

export type { AqmStats, PipelineInternals };

/**
 * What the exporter and the processor share: spans go into the assembler; each completed trace is
 * sampled, mapped to a record, offered to `shouldExport` and queued in the sender. Nothing here
 * throws into the app.
 */
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
  readonly #intake: TraceIntake;
  readonly #tickets = new DeliveryTickets();
  /** Debug lines; `undefined` when debug is off (then nothing is built for them). */
  readonly #debug: PipelineDebug | undefined;
  readonly #applicationLabel: () => string;
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
            writeAhead: options.persistMode === 'write-ahead',
          });
    this.#sender = new TraceSender({
      ...options,
      // Serverless: a partial batch waits for the flush, never for a timer that may fire only
      // after a freeze (then in the middle of another request, or never).
      batchDelayMs: options.serverless ? Number.POSITIVE_INFINITY : options.batchDelayMs,
      overflow: this.#spill,
      writeAhead: this.#spill?.writeAhead,
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
    this.#intake = new TraceIntake({
      options,
      recordOptions: {
        environment: options.environment,
        appVersion: options.appVersion,
        maxValueChars: options.maxValueChars,
        mask: options.mask,
        contentLoss: { logger: this.#logger, receivesOtlp: internals.receivesOtlp === true },
      },
      sender: this.#sender,
      reporter: this.#reporter,
      debug: this.#debug,
      forget: (traceId) => this.#assembler.forget(traceId),
      collect: (ticket) => this.#tickets.collect(ticket),
    });
    this.#assembler = new TraceAssembler({
      traceIdleMs: options.traceIdleMs,
      maxSpansPerTrace: options.maxSpansPerTrace,
      maxOpenTraces: options.maxOpenTraces,
      maxOpenModelCalls: options.maxOpenTraces,
      // Open traces count against the same bound as the queue: a root that never ends must not
      // let them grow past it.
      maxValueChars: options.maxValueChars,
      maxOpenBytes: options.maxQueueBytes,
      idleTimer: !options.serverless,
      // Spans left out of a record lose data: said on stderr even with no logging set up.
      onNotice: (kind, message) =>
        this.#reporter.report(kind, 'warn', message, (level, text) => alert(this.#logger, level, kind, text)),
      onComplete: (group) => this.#intake.take(group),
    });
  }

  /** The application id for messages (`(not resolved yet)` while a promised id is pending). */
  get applicationLabel(): string {
    return this.#applicationLabel();
  }

  /**
   * Whether trace `traceId` is being assembled (its record not made yet): once not, its record
   * is queued (in `persistMode: 'write-ahead'`, on disk) or was given up. aqm-forwarder's request
   * log keeps a request until no trace it brought is open.
   */
  isOpen(traceId: string): boolean {
    return this.#assembler.isOpen(traceId);
  }

  /** Why nothing can be delivered now (the last request got 401 or 404), or `undefined`. */
  get blocked(): string | undefined {
    return this.#health.blocked;
  }

  /**
   * Whether the service took a request within the last `windowMs` and none failed since: what the
   * queue holds is on its way out, not waiting for the service.
   */
  deliveredWithin(windowMs: number): boolean {
    return this.#health.deliveredWithin(windowMs);
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
    return this.#tickets.during(() => {
      try {
        this.#assembler.addSpans(spans);
      } catch (error) {
        this.#reporter.report('assembler', 'error', `Spans could not be assembled: ${String(error)}`);
      }
    });
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
   * fixed), or at `flushTimeoutMs`: then what is still held goes to `persistDir` (or stays queued
   * without one), and that is said once. While sending is paused, the flush sends one probe at
   * once rather than at its backoff. Never rejects.
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
      await boundedFlush({
        sender: this.#sender,
        health: this.#health,
        logger: this.#logger,
        timeoutMs: this.#options.flushTimeoutMs,
        persistDir: this.#spill === undefined ? undefined : this.#options.persistDir,
        stop: blocked,
      });
    } catch (error) {
      this.#reporter.report('flush', 'error', `The flush failed: ${String(error)}`);
    } finally {
      stopWaiting();
    }
  }

  /**
   * Flushes within `timeoutMs` (default `shutdownTimeoutMs`), then closes the connection pool (of a
   * client it created). Never rejects; later calls share the first.
   */
  shutdown(timeoutMs: number = this.#options.shutdownTimeoutMs): Promise<void> {
    this.#shutdownPromise ??= shutDownPipeline({
      assembler: this.#assembler,
      health: this.#health,
      sender: this.#sender,
      spill: this.#spill,
      client: this.#client,
      ownsClient: this.#ownsClient,
      shutdownTimeoutMs: timeoutMs,
      reporter: this.#reporter,
      logger: this.#logger,
    });
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
      lateSpans: assembly.lateSpans,
      unfinishedCalls: assembly.unfinishedCalls,
      ...this.#intake.stats(),
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
}
