import type { EvaluationTrace } from '@aqm/wire';
import type { DiagLogger } from '@opentelemetry/api';
import { aqmDiag } from '../diag.js';
import { DEFAULT_BACKOFF } from './backoff.js';
import { BatchDelivery } from './batch-delivery.js';
import { BatchLinger } from './batch-linger.js';
import { BatchPump } from './batch-pump.js';
import { DropCounter } from './drop-counter.js';
import { HeldTraces } from './held-traces.js';
import { waitHoldingProcess } from './keep-alive.js';
import { PauseGate } from './pause-gate.js';
import { dropAfterShutdown, dropQueueFull } from './queue-drops.js';
import {
  type DeliveryOutcome,
  DROPPED,
  type DropReason,
  type QueuedTrace,
  queuedTraceOfBody,
} from './queued-trace.js';
import type { SenderOptions, SenderStats, SenderTiming } from './sender-types.js';
import { settlesWithin } from './settles-within.js';
import { sleep } from './sleep.js';
import { giveUpToDisk, overflowToDisk, persistAllHeld } from './to-disk.js';
import { keepInLog, logHeldEntry } from './write-ahead-entry.js';

/** Least time given to the disk for what shutdown gave up to it. */
const MIN_DISK_WAIT_MS = 1000;

const PERSISTED: Promise<DeliveryOutcome> = Promise.resolve('persisted');

const DEFAULT_TIMING: SenderTiming = {
  backoff: DEFAULT_BACKOFF,
  random: Math.random,
  now: Date.now,
  sleep,
  reportIntervalMs: 60_000,
};

/**
 * The bounded retrying queue between the app and the service. `enqueue()` only serialises and
 * queues (the app never waits on the network); batches go out in the background through p-queue,
 * at most `concurrency` at a time, and each trace's ticket settles once it is accepted or given up.
 */
export class TraceSender {
  readonly #options: SenderOptions;
  readonly #timing: SenderTiming;
  readonly #logger: DiagLogger;
  readonly #drops: DropCounter;
  readonly #held = new HeldTraces();
  readonly #linger: BatchLinger;
  readonly #delivery: BatchDelivery;
  readonly #pump: BatchPump;
  readonly #pause: PauseGate;
  #closing = false;
  #stopped = false;
  #shutdownPromise: Promise<void> | undefined;
  readonly #hardStop = new AbortController();
  /**
   * The signal of every request: aborted to end the requests in flight when their traces went to
   * disk at a flush's bound (then replaced), and at the shutdown deadline (for good).
   */
  #cut = new AbortController();
  /** Aborted to cut every backoff wait short (on resume and at shutdown), then replaced. */
  #wake = new AbortController();

  constructor(options: SenderOptions) {
    this.#options = options;
    this.#timing = { ...DEFAULT_TIMING, ...options.timing };
    this.#logger = options.logger ?? aqmDiag;
    this.#drops = new DropCounter(
      this.#logger,
      this.#timing.reportIntervalMs,
      this.#timing.now,
      options.debug,
    );
    this.#pause = new PauseGate(this.#logger, options);
    this.#linger = new BatchLinger(options.batchDelayMs, () => this.#pump.schedule());
    this.#delivery = new BatchDelivery({
      options,
      timing: this.#timing,
      held: this.#held,
      drops: this.#drops,
      pause: this.#pause,
      hardStop: this.#hardStop.signal,
      requestSignal: () => this.#cut.signal,
      isClosing: () => this.#closing,
      isStopped: () => this.#stopped,
      wakeSignals: () => [this.#wake.signal, this.#hardStop.signal],
      resumed: () => {
        this.#wakeSleepers();
        this.#pump.schedule();
      },
      giveUp: (entries, reason, message) => this.#giveUp(entries, reason, message),
    });
    this.#pump = new BatchPump({
      options,
      held: this.#held,
      linger: this.#linger,
      pause: this.#pause,
      delivery: this.#delivery,
      logger: this.#logger,
      isClosing: () => this.#closing,
      isStopped: () => this.#stopped,
    });
  }

  /** Whether shutdown has begun (it then says what it gives up). */
  get closing(): boolean {
    return this.#closing;
  }

  /**
   * Queues a record and returns its ticket. Never throws and never waits: when the queue is full
   * (or the sender is shut down) the record is dropped at once and its ticket says so.
   *
   * @example
   * const outcome = await sender.enqueue(record); // 'delivered' | 'dropped'
   */
  enqueue(record: EvaluationTrace): Promise<DeliveryOutcome> {
    if (this.#closing) return dropAfterShutdown(this.#drops, record.traceId);
    const { maxQueueTraces, maxQueueBytes } = this.#options;
    const overflow = this.#options.overflow;
    if (this.#held.count >= maxQueueTraces && overflow === undefined && this.#options.keepOverBound !== true)
      return this.#dropQueueFull(record.traceId);
    let json: string;
    try {
      json = JSON.stringify(record);
    } catch (error) {
      this.#drops.add('failed', 1, `A trace could not be serialised: ${String(error)}`, [record.traceId]);
      return DROPPED;
    }
    // Measured before the record is copied into its buffer: one over the byte bound is not copied.
    const bytes = Buffer.byteLength(json, 'utf8');
    if (this.#held.count >= maxQueueTraces || this.#held.memoryBytes + bytes > maxQueueBytes) {
      return this.#overflow(record.traceId, json, bytes);
    }
    const entry = this.#held.hold(record.traceId, json, bytes, this.#linger.nextSequence());
    logHeldEntry(this.#options.writeAhead, entry);
    this.#pump.schedule();
    return entry.settled;
  }

  /**
   * Drops the trace at once, counted as `queue-full` (or `shutdown`), when the queue could not take
   * a record of at least `minBytes`; `undefined` when it might. Lets the pipeline refuse a trace
   * before building its record.
   */
  refuseIfFull(minBytes: number, traceId?: string): Promise<DeliveryOutcome> | undefined {
    if (this.#closing) return dropAfterShutdown(this.#drops, traceId);
    const { maxQueueTraces, maxQueueBytes } = this.#options;
    if (this.#held.count >= maxQueueTraces || this.#held.memoryBytes + minBytes > maxQueueBytes) {
      // With a disk behind the queue, the record is built and goes there instead; an admitted one is kept.
      if (
        this.#options.overflow?.canBuffer(minBytes) === true ||
        this.#options.writeAhead?.canKeep(minBytes) === true ||
        this.#options.keepOverBound === true
      )
        return undefined;
      return this.#dropQueueFull(traceId);
    }
    return undefined;
  }

  /**
   * Sends every trace queued so far without waiting for its batch to fill (`batchDelayMs`): for a
   * caller about to wait for their delivery, such as `AqmSpanExporter.export()`.
   */
  sendNow(): void {
    this.#linger.hurry();
    this.#pump.schedule();
  }

  /**
   * Resolves `true` once every trace queued before the call has been accepted or given up; `false`
   * after `timeoutMs`, or after `maxRetryElapsedMs` plus one last backoff wait, whichever comes
   * first (the traces stay queued), or when `stop` settles first (the caller stopped waiting:
   * delivery is known to be impossible). Never rejects. While it waits, a timer keeps the process
   * alive: the app is explicitly waiting on it.
   */
  flush(stop?: Promise<void>, timeoutMs: number = Number.POSITIVE_INFINITY): Promise<boolean> {
    const waiting = this.#held.tickets();
    if (waiting.length === 0) return Promise.resolve(true);
    this.sendNow();
    // While paused, the probe goes now: the caller waits to learn whether the key or id is fixed.
    if (this.#pause.paused) this.#wakeSleepers();
    // One batch gives up within this, but batches beyond `concurrency` start retrying only then.
    // The flush resolves at the bound (its traces stay queued): merely letting the process go would
    // end it with `await forceFlush()` pending (exit code 13, or the code after it never run).
    const longest = Math.min(timeoutMs, this.#options.maxRetryElapsedMs + this.#timing.backoff.maxMs);
    return waitHoldingProcess(waiting, longest, stop);
  }

  /**
   * At a flush's bound: writes every trace held (waiting or in flight) to the disk behind the
   * queue and ends the requests in flight (the service replaces a trace sent again, so one that
   * was still answered is harmless). Returns how many traces went and their tickets, which settle
   * once they are on disk; nothing when there is no disk or it takes no writes now (the traces
   * then stay queued).
   */
  persistHeld(message: string): { traces: number; written: Promise<DeliveryOutcome[]> } | undefined {
    if (this.#stopped) return undefined;
    const moved = persistAllHeld(this.#held, this.#drops, this.#options.overflow, message);
    if (moved !== undefined && moved.traces > 0) {
      this.#cut.abort();
      this.#cut = new AbortController();
    }
    return moved;
  }

  /**
   * Stops taking traces, sends what is held within `timeoutMs`, then aborts what is still in
   * flight and gives up the rest (reason `shutdown`). Never rejects; later calls share the first.
   */
  shutdown(timeoutMs: number): Promise<void> {
    this.#shutdownPromise ??= this.#shutdown(timeoutMs);
    return this.#shutdownPromise;
  }

  /**
   * Whether records read back from disk (`traces`, `bytes`) may be queued now: nothing waits for a
   * batch, a request slot is free, there is room, and the service is not known to be failing (then
   * only one file at a time is in memory, retried on the backoff schedule like any batch).
   */
  canTakeReplay(traces: number, bytes: number): boolean {
    if (this.#closing || this.#held.waiting > 0 || this.#pump.activeBatches >= this.#options.concurrency)
      return false;
    if (this.#held.count === 0) return true;
    if (this.#delivery.failing || this.#pause.paused) return false;
    const { maxQueueTraces, maxQueueBytes } = this.#options;
    return this.#held.count + traces <= maxQueueTraces && this.#held.memoryBytes + bytes <= maxQueueBytes / 2;
  }

  /** Queues records read back from disk; they go out at once (they have waited long enough). */
  admit(records: readonly { traceId: string; body: Buffer }[], queuedAt: number): Promise<DeliveryOutcome>[] {
    // Shutdown began while the file was being read: its records stay on disk.
    if (this.#closing) return records.map(() => PERSISTED);
    const tickets = records.map((record) => {
      const entry = queuedTraceOfBody(record.traceId, record.body, this.#linger.nextSequence(), {
        queuedAt,
        fromDisk: true,
      });
      this.#held.add(entry);
      return entry.settled;
    });
    this.sendNow();
    return tickets;
  }

  /** The sender's counters. */
  stats(): SenderStats {
    return {
      exportedTraces: this.#delivery.exported,
      droppedTraces: this.#drops.snapshot(),
      retries: this.#delivery.retries,
      queuedTraces: this.#held.count,
      queuedBytes: this.#held.bytes,
      inFlight: this.#held.inFlight,
    };
  }

  async #shutdown(timeoutMs: number): Promise<void> {
    this.#closing = true;
    this.#wakeSleepers(); // retry now rather than sleep past the deadline
    const flushed = await settlesWithin(this.flush(), timeoutMs);
    this.#stopped = true;
    this.#linger.stop();
    // Also when everything was settled: a request still in flight then carries traces a flush's
    // bound wrote to disk, and must not hold a process that is ending.
    this.#cut.abort();
    if (!flushed) {
      this.#hardStop.abort();
      const left = this.#held.takeAll();
      if (left.length > 0) {
        this.#giveUp(
          left,
          'shutdown',
          `${left.length} trace(s) not delivered within shutdownTimeoutMs (${timeoutMs} ms)`,
        );
        // What goes to disk is written before shutdown resolves, unless the disk hangs: then at
        // most as long again (the spill's close() says what was still being written).
        await settlesWithin(
          Promise.all(left.map((entry) => entry.settled)),
          Math.max(MIN_DISK_WAIT_MS, timeoutMs),
        );
      }
    }
    this.#pump.clear();
  }

  #giveUp(entries: readonly QueuedTrace[], reason: DropReason, message: string): void {
    giveUpToDisk(this.#held, this.#drops, this.#options.overflow, { entries, reason, message });
  }

  /** A record the memory queue cannot hold: to disk when there is one that takes it, else dropped. */
  #overflow(traceId: string, json: string, bytes: number): Promise<DeliveryOutcome> {
    const record = { traceId, json, bytes };
    const logged = keepInLog(
      this.#options.writeAhead,
      this.#drops,
      record,
      this.#options.keepOverBound === true,
    );
    if (logged !== undefined) return logged;
    const overflow = this.#options.overflow;
    // The JSON is copied straight into the file's buffer: no Buffer of its own per trace.
    if (overflow?.canBuffer(bytes) === true)
      return overflowToDisk(overflow, this.#drops, { traceId, json, bytes });
    if (this.#options.keepOverBound !== true) return this.#dropQueueFull(traceId);
    const entry = this.#held.hold(traceId, json, bytes, this.#linger.nextSequence());
    logHeldEntry(this.#options.writeAhead, entry);
    this.#pump.schedule();
    return entry.settled;
  }

  #dropQueueFull(traceId: string | undefined): Promise<DeliveryOutcome> {
    return dropQueueFull(this.#drops, this.#held, this.#options, this.#pause.paused, traceId);
  }

  #wakeSleepers(): void {
    this.#wake.abort();
    this.#wake = new AbortController();
  }
}
