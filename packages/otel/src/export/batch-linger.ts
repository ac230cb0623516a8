/**
 * When waiting traces are worth a request: a full batch goes at once, a partial one only once
 * its oldest trace has waited `delayMs` (or when someone is waiting for delivery: a flush, an
 * exporter's `export()`, shutdown). Under load every request then carries a full batch instead of
 * whatever ended since the last request, which is what costs the app CPU (each request has a fixed
 * cost); with little traffic a trace still leaves within `delayMs`. OpenTelemetry's
 * `BatchSpanProcessor` does the same with its `scheduledDelayMillis`.
 */
export class BatchLinger {
  readonly #delayMs: number;
  readonly #onExpire: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Sequence number of the last trace queued. */
  #last = 0;
  /** Traces with a sequence number up to this one go without waiting. */
  #urgentUpTo = 0;
  #stopped = false;

  /**
   * @param delayMs - longest a partial batch waits; 0 sends whatever is waiting at once.
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
   * Whether a batch should go now: `oldest` is the sequence number of the trace at the front of
   * the queue, `full` whether the waiting traces fill a request. When not, the wait is started.
   */
  isDue(oldest: number, full: boolean): boolean {
    if (this.#delayMs === 0 || full || oldest <= this.#urgentUpTo) return true;
    this.#arm();
    return false;
  }

  /** Cancels the wait for good (shutdown). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(): void {
    if (this.#timer !== undefined || this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.hurry();
      this.#onExpire();
    }, this.#delayMs);
    // Waiting traces never keep the process alive; a flush or shutdown sends them at once.
    this.#timer.unref?.();
  }
}
