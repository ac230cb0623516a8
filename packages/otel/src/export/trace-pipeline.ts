import { AqmClient } from '@aqm/client';
import type { EvaluationTrace } from '@aqm/wire';
import type { DiagLogger } from '@opentelemetry/api';
import { TraceAssembler, type TraceGroup } from '../assembly/trace-assembler.js';
import { aqmDiag } from '../diag.js';
import { prepareTraceRecord, type RecordOptions } from '../mapping/build-record.js';
import type { LlmLogRecord } from '../mapping/llm-log-record.js';
import type { ResolvedOptions } from '../options.js';
import { isSampledIn } from '../privacy/sampling.js';
import type { ReadableSpan } from '../sdk-types.js';
import { DiskSpill } from '../spill/disk-spill.js';
import type { DiskStats } from '../spill/spill-ledger.js';
import { ApplicationIdSource } from './application-id.js';
import type { DeliveryOutcome } from './queued-trace.js';
import type { SenderStats, SenderTiming, SubmitBatch } from './sender-types.js';
import { ThrottledReporter } from './throttled-reporter.js';
import { TraceSender } from './trace-sender.js';

/**
 * Test seams of the exporter and processor: deterministic time for the retry schedule and a
 * logger. Not part of the documented API.
 * @internal
 */
export interface PipelineInternals {
  timing?: Partial<SenderTiming>;
  logger?: DiagLogger;
}

/** `stats()` of {@link AqmSpanExporter} and {@link AqmSpanProcessor}. */
export interface AqmStats extends SenderStats {
  /** Traces being assembled (waiting for their root span, the idle timeout or a flush). */
  openTraces: number;
  /** Completed traces with no LLM span: not sent. */
  skippedTraces: number;
  /** Completed traces left out by `sampleRate`. */
  sampledOutTraces: number;
  /** Records `shouldExport` said no to. */
  filteredTraces: number;
  /** What `persistDir` holds and what went through it; absent when it is not set. */
  disk?: DiskStats;
}

/** The minimal client surface the pipeline needs. */
interface EvaluationsClient {
  evaluations: {
    submitSerialized(
      applicationId: string,
      traces: readonly Uint8Array[],
      options: { signal?: AbortSignal; timeoutMs?: number; maxRetries?: number },
    ): Promise<unknown>;
  };
  close?(): Promise<void> | void;
}

/**
 * What the exporter and the processor share: spans go into the assembler; each completed trace is
 * sampled, mapped to a record, offered to `shouldExport` and queued in the sender. Nothing here
 * throws into the app.
 */
export class TracePipeline {
  readonly #options: ResolvedOptions;
  readonly #logger: DiagLogger;
  readonly #reporter: ThrottledReporter;
  readonly #client: EvaluationsClient;
  readonly #ownsClient: boolean;
  readonly #assembler: TraceAssembler;
  readonly #sender: TraceSender;
  readonly #spill: DiskSpill | undefined;
  readonly #recordOptions: RecordOptions;
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
  #shutdownPromise: Promise<void> | undefined;

  constructor(options: ResolvedOptions, internals: PipelineInternals = {}) {
    this.#options = options;
    this.#logger = internals.logger ?? aqmDiag;
    this.#reporter = new ThrottledReporter(this.#logger, internals.timing?.reportIntervalMs ?? 60_000);
    this.#ownsClient = options.client === undefined;
    this.#client =
      options.client ??
      new AqmClient({
        apiKey: options.apiKey as string,
        baseUrl: options.baseUrl as string,
        timeoutMs: options.requestTimeoutMs,
        maxRetries: 0, // the sender owns the retry policy
        allowInsecureHttp: options.allowInsecureHttp,
      });
    const applicationId = new ApplicationIdSource(options.applicationId, this.#logger);
    const submit: SubmitBatch = async (traces, signal) =>
      this.#client.evaluations.submitSerialized(await applicationId.get(signal), traces, {
        signal,
        timeoutMs: options.requestTimeoutMs,
        maxRetries: 0,
      });
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
          });
    this.#sender = new TraceSender({
      ...options,
      overflow: this.#spill,
      // A getter: the 404 message names the id, which may only be known later.
      get applicationId() {
        return applicationId.label;
      },
      submit,
      timing: internals.timing,
      logger: this.#logger,
    });
    this.#spill?.attach(this.#sender);
    this.#recordOptions = {
      environment: options.environment,
      appVersion: options.appVersion,
      maxValueChars: options.maxValueChars,
      mask: options.mask,
    };
    this.#assembler = new TraceAssembler({
      traceIdleMs: options.traceIdleMs,
      maxSpansPerTrace: options.maxSpansPerTrace,
      maxOpenTraces: options.maxOpenTraces,
      onComplete: (group) => this.#onComplete(group),
    });
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

  /** Completes every open trace and resolves once everything queued is accepted or given up. */
  async forceFlush(): Promise<void> {
    if (!this.isShutdown) {
      try {
        this.#assembler.flushAll();
      } catch (error) {
        this.#reporter.report('assembler', 'error', `Open traces could not be completed: ${String(error)}`);
      }
    }
    await this.#sender.flush();
  }

  /** Flushes within `shutdownTimeoutMs`, then closes the connection pool (of a client it created). Never rejects. */
  shutdown(): Promise<void> {
    this.#shutdownPromise ??= this.#shutdown();
    return this.#shutdownPromise;
  }

  /** The pipeline's counters. */
  stats(): AqmStats {
    const stats: AqmStats = {
      ...this.#sender.stats(),
      openTraces: this.#assembler.openTraces,
      skippedTraces: this.#skipped,
      sampledOutTraces: this.#sampledOut,
      filteredTraces: this.#filtered,
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
    await this.#sender.shutdown(this.#options.shutdownTimeoutMs);
    await this.#spill?.close();
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
        return;
      }
      const pending = prepareTraceRecord(group.spans, group.logs, this.#recordOptions);
      if (pending === undefined) {
        this.#skipped += 1;
        return;
      }
      // A full queue refuses the trace before the costly half of mapping: an outage must not
      // make every ended trace cost the app a record it will drop at once.
      const refused = this.#sender.refuseIfFull(pending.minBytes);
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
        return;
      }
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
