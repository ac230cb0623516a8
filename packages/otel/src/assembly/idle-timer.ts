/**
 * The assembler's one idle timer: armed for the earliest deadline asked for, `unref()`ed so the
 * app's process may exit while traces are open, and stopped for good by `stop()`. The callback
 * runs with the timer already disarmed, so it may arm it again.
 */
export class IdleTimer {
  readonly #onDue: () => void;
  readonly #now: () => number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #dueMs = Number.POSITIVE_INFINITY;
  #stopped = false;

  constructor(onDue: () => void, now: () => number) {
    this.#onDue = onDue;
    this.#now = now;
  }

  /** Whether the timer is armed. */
  get armed(): boolean {
    return this.#timer !== undefined;
  }

  /** Arms the timer for `dueMs` unless it is already due at or before then. */
  ensure(dueMs: number): void {
    if (this.#stopped || (this.#timer !== undefined && this.#dueMs <= dueMs)) return;
    this.#clear();
    this.#dueMs = dueMs;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#dueMs = Number.POSITIVE_INFINITY;
        try {
          this.#onDue();
        } catch {
          // A timer callback must never throw into the app.
        }
      },
      Math.max(0, dueMs - this.#now()),
    );
    this.#timer.unref?.();
  }

  /** Stops the timer for good. */
  stop(): void {
    this.#stopped = true;
    this.#clear();
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#dueMs = Number.POSITIVE_INFINITY;
  }
}
