import type { DiagLogger } from '@opentelemetry/api';

/** One message kind's throttle state. */
interface Slot {
  lastAt: number;
  suppressed: number;
}

/**
 * Reports a kind of event at most once per interval, counting what it held back, so that a
 * failure repeated thousands of times (a full queue during an outage) costs one log line a minute.
 */
export class ThrottledReporter {
  readonly #slots = new Map<string, Slot>();
  readonly #logger: DiagLogger;
  readonly #intervalMs: number;
  readonly #now: () => number;

  constructor(logger: DiagLogger, intervalMs: number, now: () => number = Date.now) {
    this.#logger = logger;
    this.#intervalMs = intervalMs;
    this.#now = now;
  }

  /**
   * Logs `message` at `level` unless a message of the same `key` was logged less than the
   * interval ago; held-back messages are counted and the count is appended to the next one.
   * `print`, when given, says it instead of the logger (e.g. on stderr when no logging is set up).
   */
  report(
    key: string,
    level: 'warn' | 'error',
    message: string,
    print?: (level: 'warn' | 'error', text: string) => void,
  ): void {
    const now = this.#now();
    const slot = this.#slots.get(key);
    if (slot !== undefined && now - slot.lastAt < this.#intervalMs) {
      slot.suppressed += 1;
      return;
    }
    const held = slot?.suppressed ?? 0;
    this.#slots.set(key, { lastAt: now, suppressed: 0 });
    const suffix =
      held > 0 ? ` (${held} similar message${held === 1 ? '' : 's'} held back since the last report)` : '';
    if (print === undefined) this.#logger[level](`${message}${suffix}`);
    else print(level, `${message}${suffix}`);
  }
}
