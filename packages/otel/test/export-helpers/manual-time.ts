/** A pending sleep of the sender, released by the test. */
interface Sleeper {
  ms: number;
  wake: () => void;
}

/**
 * Deterministic time for the sender: `now()` only moves when a sleep is released, by the slept
 * amount; `random()` is 1, so each backoff delay is its ceiling (1 s, 2 s, 4 s, ... 30 s).
 * With `autoRelease`, every sleep ends at once (after the clock moved); otherwise sleeps wait
 * for `releaseAll()`, so a test can look at the state while the sender waits.
 */
export class ManualTime {
  nowMs = 1_000_000;
  readonly slept: number[] = [];
  readonly #sleepers: Sleeper[] = [];
  readonly #waiters: Array<() => void> = [];

  constructor(readonly autoRelease: boolean) {}

  /** The `timing` option of the sender / pipeline. */
  get timing() {
    return {
      now: () => this.nowMs,
      random: () => 1,
      sleep: (ms: number, signals: readonly AbortSignal[]) => this.#sleep(ms, signals),
    };
  }

  /** Sleeps currently waiting. */
  get waiting(): number {
    return this.#sleepers.length;
  }

  /** Resolves once `count` sleeps are waiting. */
  waitForSleepers(count: number): Promise<void> {
    if (this.#sleepers.length >= count) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.#sleepers.length >= count) resolve();
        else this.#waiters.push(check);
      };
      this.#waiters.push(check);
    });
  }

  /** Ends every waiting sleep, moving the clock by the longest. */
  releaseAll(): void {
    const sleepers = this.#sleepers.splice(0);
    this.nowMs += Math.max(0, ...sleepers.map((s) => s.ms));
    for (const sleeper of sleepers) sleeper.wake();
  }

  #sleep(ms: number, signals: readonly AbortSignal[]): Promise<void> {
    this.slept.push(ms);
    if (this.autoRelease) {
      this.nowMs += ms;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        ms,
        wake: () => {
          const at = this.#sleepers.indexOf(sleeper);
          if (at >= 0) this.#sleepers.splice(at, 1);
          resolve();
        },
      };
      for (const signal of signals) signal.addEventListener('abort', () => sleeper.wake(), { once: true });
      this.#sleepers.push(sleeper);
      for (const waiter of this.#waiters.splice(0)) waiter();
    });
  }
}
