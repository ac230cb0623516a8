/** What the linger needs to know of the trace at the front of the queue. */
export interface WaitingTrace {
  /** Order of arrival (1, 2, ...). */
  readonly sequence: number;
  /** `Date.now()` when it was queued. */
  readonly queuedAt: number;
}

/**
 * When waiting traces are worth a request: a full batch goes at once, a partial one only once
 * its oldest trace has waited `delayMs` (or when someone is waiting for delivery: a flush, an
 * exporter's `export()`, shutdown). Under load every request then carries a full batch instead of
 * whatever ended since the last request, which is what costs the app CPU (each request has a fixed
 * cost); with little traffic a trace still leaves within `delayMs`. OpenTelemetry's
 * `BatchSpanProcessor` does the same with its `scheduledDelayMillis`.
 *
 * The wait runs from the arrival of the oldest waiting trace: when a full batch leaves, the timer
 * is moved to the trace now at the front, so the traces behind a full batch are not sent half
 * full just because an older one had started the clock.
 */
export class BatchLinger {
  readonly #delayMs: number;
  readonly #onExpire: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The sequence number of the trace the timer runs for. */
  #timerFor = 0;
  /** Sequence number of the last trace queued. */
  #last = 0;
  /** Traces with a sequence number up to this one go without waiting. */
  #urgentUpTo = 0;
  #stopped = false;

  /**
   * @param delayMs - longest a partial batch waits; 0 sends whatever is waiting at once; `Infinity`
   *   arms no timer: a partial batch waits for a flush (`serverless`, where a timer may fire only
   *   after the process was frozen and thawed).
   * @param onExpire - called when the wait is over, to send what is now due.
   */
  constructor(delayMs: number, onExpire: () => void) {
    this.#delayMs = delayMs;
    this.#onExpire = onExpire;
  }

  /** The sequence number of a trace being queued now. */
  nextSequence(): number {
    this.#last += 1;
    return this.#last;
  }

  /** Makes every trace queued so far due at once (a flush, an export waiting for delivery). */
  hurry(): void {
    this.#urgentUpTo = this.#last;
  }

  /**
   * Whether a batch should go now: `oldest` is the trace at the front of the queue, `full`
   * whether the waiting traces fill a request. When not, the wait for `oldest` is started.
   */
  isDue(oldest: WaitingTrace, full: boolean): boolean {
    if (this.#delayMs === 0 || full || oldest.sequence <= this.#urgentUpTo) return true;
    this.#waitFor(oldest);
    return false;
  }

  /** Cancels the wait for good (shutdown). */
  stop(): void {
    this.#stopped = true;
    this.#clear();
  }

  #waitFor(oldest: WaitingTrace): void {
    if (this.#stopped || (this.#timer !== undefined && this.#timerFor === oldest.sequence)) return;
    // No timer at all (setTimeout would read Infinity as 1 ms): only a flush makes it due.
    if (!Number.isFinite(this.#delayMs)) return;
    // The timer ran for a trace that has left in a full batch: restart it for this one.
    this.#clear();
    // Clamped, so a wall clock set back cannot make a trace wait longer than delayMs.
    const waited = Math.min(Math.max(Date.now() - oldest.queuedAt, 0), this.#delayMs);
    this.#timerFor = oldest.sequence;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#urgentUpTo = Math.max(this.#urgentUpTo, this.#timerFor);
      this.#onExpire();
    }, this.#delayMs - waited);
    // Waiting traces never keep the process alive; a flush or shutdown sends them at once.
    this.#timer.unref?.();
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
