import type { DiagLogger } from '@opentelemetry/api';
import { alert } from '../diag.js';
import type { SendFailure } from './send-outcome.js';

/** How long requests must keep failing before the app is told on stderr. */
export const OUTAGE_ALERT_MS = 60_000;

/**
 * Watches the outcome of every request: says once (visibly, see `alert`) when nothing could be
 * delivered for a minute, and knows when delivery is impossible until someone acts (a 401 or 404),
 * so that a flush can return at once instead of waiting for its timeout.
 */
export class DeliveryHealth {
  readonly #logger: DiagLogger;
  readonly #now: () => number;
  readonly #redact: (text: string) => string;
  readonly #describeQueue: () => string;
  #failingSince: number | undefined;
  #outageReported = false;
  #blocked: string | undefined;
  readonly #listeners = new Set<(reason: string) => void>();

  constructor(options: {
    logger: DiagLogger;
    now: () => number;
    redact: (text: string) => string;
    describeQueue: () => string;
  }) {
    this.#logger = options.logger;
    this.#now = options.now;
    this.#redact = options.redact;
    this.#describeQueue = options.describeQueue;
  }

  /** Why nothing can be delivered (the last request got 401 or 404), or `undefined`. */
  get blocked(): string | undefined {
    return this.#blocked;
  }

  /**
   * Calls `listener` the next times a request finds delivery impossible (401/404). Returns the
   * function that removes it; callers remove it when they stop waiting, so the set stays small.
   */
  onBlocked(listener: (reason: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A request was accepted. */
  succeeded(): void {
    if (this.#outageReported) this.#logger.info('Traces are being delivered again.');
    this.#failingSince = undefined;
    this.#outageReported = false;
    this.#blocked = undefined;
  }

  /** A request failed, sorted by `classifyFailure`. */
  failed(failure: SendFailure): void {
    // The service answered: these traces are the problem, not delivery.
    if (failure.kind === 'rejected' || failure.kind === 'too-large') return;
    const now = this.#now();
    this.#failingSince ??= now;
    if (failure.kind === 'pause') {
      this.#blocked = this.#redact(failure.description);
      for (const listener of [...this.#listeners]) {
        try {
          listener(this.#blocked);
        } catch {
          // A waiter's failure is not ours to report.
        }
      }
      return; // PauseGate says what to fix.
    }
    const failingFor = now - this.#failingSince;
    if (this.#outageReported || failingFor < OUTAGE_ALERT_MS) return;
    this.#outageReported = true;
    alert(
      this.#logger,
      'error',
      'outage',
      `No trace could be delivered for ${Math.round(failingFor / 1000)} s; last error: ${this.#redact(failure.description)}. ` +
        `Traces are kept and retried (${this.#describeQueue()}).`,
    );
  }
}
