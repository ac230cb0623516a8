import { backoffDelay } from './backoff.js';
import type { DropCounter } from './drop-counter.js';
import type { HeldTraces } from './held-traces.js';
import type { PauseGate } from './pause-gate.js';
import type { DropReason, QueuedTrace } from './queued-trace.js';
import { classifyFailure, rejectedPositions, type SendFailure } from './send-outcome.js';
import type { SenderOptions, SenderTiming } from './sender-types.js';
import { shrinkRecord } from './shrink-record.js';
import { withTracingSuppressed } from './suppress-tracing.js';

/** Per batch: whether it is the one probing the service while sending is paused. */
export interface BatchState {
  probe: boolean;
}

/** What a {@link BatchDelivery} uses of the sender that owns it. */
export interface DeliveryHost {
  readonly options: SenderOptions;
  readonly timing: SenderTiming;
  readonly held: HeldTraces;
  readonly drops: DropCounter;
  readonly pause: PauseGate;
  /** Aborted at the shutdown deadline. */
  readonly hardStop: AbortSignal;
  /** The signal of the next request: aborted at the shutdown deadline or when a flush's bound moved its traces to disk. */
  requestSignal(): AbortSignal;
  /** Whether shutdown has begun: a pause no longer waits. */
  isClosing(): boolean;
  /** Whether the shutdown deadline has passed: nothing more is sent. */
  isStopped(): boolean;
  /** The signals that cut a backoff wait short (resume, shutdown). */
  wakeSignals(): readonly AbortSignal[];
  /** A request succeeded after a pause: the waiting batches may go. */
  resumed(): void;
  /**
   * Gives up traces for a reason the disk can cure (retry time out, shutdown): they go to
   * `persistDir` when there is one, else they are dropped for `reason`.
   */
  giveUp(entries: readonly QueuedTrace[], reason: DropReason, message: string): void;
}

/**
 * The fate of one batch: its requests, retried with backoff within `maxRetryElapsedMs`, split in
 * halves on 413 and shrunk when a single trace is too large, the traces a 400 names dropped and
 * the rest resent, a probe at a time while a 401 or 404 pauses sending. Each trace of the batch is
 * settled (delivered or dropped, by reason) before `deliver()` resolves; it never rejects.
 */
export class BatchDelivery {
  readonly #host: DeliveryHost;
  #exported = 0;
  #retries = 0;
  /** Whether the last request failed in a way that may pass (the service is down or paused). */
  failing = false;

  constructor(host: DeliveryHost) {
    this.#host = host;
  }

  /** Traces the service accepted. */
  get exported(): number {
    return this.#exported;
  }

  /** Requests sent again after a failure that might pass. */
  get retries(): number {
    return this.#retries;
  }

  /** Sends `entries` until each is delivered or given up. Never throws. */
  async deliver(batch: QueuedTrace[], state: BatchState): Promise<void> {
    const started = this.#host.timing.now();
    let attempt = 0;
    let entries = batch;
    for (;;) {
      entries = entries.filter((entry) => !entry.done); // a shutdown deadline may have settled some
      if (entries.length === 0 || this.#host.isStopped()) return;
      const failure = await this.#attempt(entries);
      if (this.#host.isStopped()) return;
      if (failure === undefined) return this.#delivered(entries);
      // Settled meanwhile (written to disk at a flush's bound, its request cut): nothing to retry.
      if (entries.every((entry) => entry.done)) return;
      this.#host.options.debug?.requestFailed(
        entries.map((entry) => entry.traceId),
        failure,
      );
      this.failing = failure.kind === 'retry' || failure.kind === 'pause';
      switch (failure.kind) {
        case 'retry': {
          const delay =
            failure.retryAfterMs ??
            backoffDelay(this.#host.timing.backoff, attempt, this.#host.timing.random);
          // A probe keeps its traces while paused: they go out once the key or id is fixed.
          const budgeted = !(state.probe && this.#host.pause.paused);
          const elapsed = this.#host.timing.now() - started;
          if (budgeted && elapsed + delay > this.#host.options.maxRetryElapsedMs) {
            return this.#drop(
              entries,
              'retries-exhausted',
              `${entries.length} trace(s) given up after retrying for ${elapsed} ms (maxRetryElapsedMs ${this.#host.options.maxRetryElapsedMs}); last error: ${failure.description}`,
            );
          }
          attempt += 1;
          this.#retries += 1;
          await this.#host.timing.sleep(delay, this.#host.wakeSignals());
          continue;
        }
        case 'too-large': {
          if (entries.length > 1) return this.#deliverHalves(entries, state);
          const [entry] = entries as [QueuedTrace];
          if (!this.#shrink(entry)) {
            return this.#drop(
              entries,
              'too-large',
              `Trace ${entry.traceId} is too large for the service (${entry.bytes} bytes after shrinking): ${failure.description}`,
            );
          }
          continue;
        }
        case 'rejected':
          return this.#isolateRejected(entries, failure, state);
        case 'pause': {
          if (this.#host.isClosing()) {
            return this.#drop(
              entries,
              'shutdown',
              `${entries.length} trace(s) not sent at shutdown: ${failure.description}`,
            );
          }
          this.#host.pause.pause(failure.cause);
          if (!state.probe) {
            if (this.#host.pause.probeActive) return this.#host.held.giveBack(entries);
            state.probe = true;
            this.#host.pause.probeActive = true;
          }
          this.#retries += 1;
          const delay = backoffDelay(
            this.#host.timing.backoff,
            this.#host.pause.attempt,
            this.#host.timing.random,
          );
          this.#host.pause.attempt += 1;
          await this.#host.timing.sleep(delay, this.#host.wakeSignals());
          continue;
        }
        case 'failed':
          return this.#drop(entries, 'failed', `${entries.length} trace(s) dropped: ${failure.description}`);
      }
    }
  }

  /** One request; `undefined` when the service accepted the batch. */
  async #attempt(entries: readonly QueuedTrace[]): Promise<SendFailure | undefined> {
    try {
      const traces = entries.map((entry) => entry.body);
      const signal = this.#host.requestSignal();
      await withTracingSuppressed(() => this.#host.options.submit(traces, signal));
      return undefined;
    } catch (error) {
      return classifyFailure(error);
    }
  }

  async #deliverHalves(entries: QueuedTrace[], state: BatchState): Promise<void> {
    const middle = Math.ceil(entries.length / 2);
    await this.deliver(entries.slice(0, middle), state);
    await this.deliver(entries.slice(middle), state);
  }

  /** 400: drops the traces the `errors[]` paths name (else halves until one is left) and resends the rest. */
  async #isolateRejected(
    entries: QueuedTrace[],
    failure: SendFailure & { kind: 'rejected' },
    state: BatchState,
  ) {
    const positions = rejectedPositions(failure.errors, entries.length);
    if (positions.size === 0 && entries.length > 1) return this.#deliverHalves(entries, state);
    const bad = positions.size === 0 ? entries : entries.filter((_, index) => positions.has(index));
    const rest = entries.filter((entry) => !bad.includes(entry));
    const details = failure.errors.map((item) => `${item.path}: ${item.message}`).join('; ');
    this.#drop(
      bad,
      'rejected',
      `The service rejected ${bad.length} trace(s) (${bad.map((entry) => entry.traceId).join(', ')}): ${details || failure.description}`,
    );
    if (rest.length > 0) await this.deliver(rest, state);
  }

  /** Applies the next shrink step to a trace the service found too large; false when none is left. */
  #shrink(entry: QueuedTrace): boolean {
    const shrunk = shrinkRecord(
      entry.body.toString('utf8'),
      entry.shrinkStep,
      this.#host.options.maxValueChars,
    );
    if (shrunk === undefined) return false;
    this.#host.held.resize(entry, shrunk.json);
    entry.shrinkStep = shrunk.nextStep;
    return true;
  }

  #delivered(entries: readonly QueuedTrace[]): void {
    this.#host.options.debug?.sent(entries.map((entry) => entry.traceId));
    this.failing = false;
    this.#exported += this.#host.held.settle(entries, 'delivered');
    if (this.#host.pause.resume()) this.#host.resumed();
  }

  #drop(entries: readonly QueuedTrace[], reason: DropReason, message: string): void {
    if (reason === 'retries-exhausted' || reason === 'shutdown') {
      this.#host.giveUp(entries, reason, message);
      return;
    }
    let dropped = entries;
    if (reason === 'failed') {
      // Read back from disk: only the service's acceptance or a 400/413 isolating a record lets it
      // leave the disk; a failure that is not about the records (a 409, an application id that did
      // not resolve) leaves them there for a later try.
      const kept = entries.filter((entry) => entry.fromDisk === true);
      if (kept.length > 0) {
        this.#host.held.settle(kept, 'persisted');
        dropped = entries.filter((entry) => entry.fromDisk !== true);
      }
    }
    const count = this.#host.held.settle(dropped, 'dropped');
    if (count > 0)
      this.#host.drops.add(
        reason,
        count,
        message,
        dropped.map((entry) => entry.traceId),
      );
  }
}
