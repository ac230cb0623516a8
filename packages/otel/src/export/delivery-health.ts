import type { DiagLogger } from '@opentelemetry/api';
import { alert } from '../diag.js';
import { type PauseCause, whatToFix } from './pause-gate.js';
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
  readonly #applicationLabel: () => string;
  #failingSince: number | undefined;
  #lastSuccessAt: number | undefined;
  #outageReported = false;
  #lastFailure = '';
  #blocked: string | undefined;
  #blockedCause: PauseCause | undefined;
  /** Whether a 401/404 was known when shutdown began: the pause then said what to fix. */
  #blockedBeforeShutdown = false;
  /** Whether a dropping refusal was said since the last success (with a diag logger, no throttle applies). */
  #refusalReported = false;
  readonly #listeners = new Set<(reason: string) => void>();

  constructor(options: {
    logger: DiagLogger;
    now: () => number;
    redact: (text: string) => string;
    describeQueue: () => string;
    /** The application id for messages (it may still be resolving). */
    applicationLabel?: () => string;
  }) {
    this.#logger = options.logger;
    this.#now = options.now;
    this.#redact = options.redact;
    this.#describeQueue = options.describeQueue;
    this.#applicationLabel = options.applicationLabel ?? (() => '(unknown)');
  }

  /** Why nothing can be delivered (the last request got 401 or 404), or `undefined`. */
  get blocked(): string | undefined {
    return this.#blocked;
  }

  /**
   * Whether the service took a request within the last `windowMs` and none failed since: what the
   * queue holds is then on its way out.
   */
  deliveredWithin(windowMs: number): boolean {
    return (
      this.#lastSuccessAt !== undefined &&
      this.#now() - this.#lastSuccessAt <= windowMs &&
      this.#failingSince === undefined &&
      this.#blocked === undefined
    );
  }

  /** The last failure of a request that may pass (redacted), or `''` when none failed yet. */
  get lastFailure(): string {
    return this.#lastFailure;
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
    this.#lastSuccessAt = this.#now();
    this.#failingSince = undefined;
    this.#outageReported = false;
    this.#blocked = undefined;
    this.#blockedCause = undefined;
    this.#refusalReported = false;
  }

  /** Shutdown begins: from now on a 401/404 drops the traces at once, without pausing (or saying so). */
  shutdownStarted(): void {
    this.#blockedBeforeShutdown = this.#blocked !== undefined;
  }

  /**
   * Shutdown gave up `count` traces while requests were failing. Said visibly (see `alert`): a
   * process that lives less than a minute (a script, a job, a function) never reaches the outage
   * report, and would lose every trace in silence. When the cause was said already (the pause of a
   * 401/404, or the outage report), both of which promised the traces would go out later, only the
   * loss is new, and only it is said.
   */
  undeliveredAtShutdown(count: number): void {
    if (count <= 0) return;
    if (this.#failingSince === undefined) {
      // No request failed: the service took longer than the bound to answer (or the application id
      // was still being looked up). Lost all the same, and a script's end would hide it.
      alert(
        this.#logger,
        'error',
        'undelivered',
        `${count} trace(s) were lost at shutdown: the service had not answered in time. ` +
          'Set persistDir (AQM_PERSIST_DIR) to keep such traces on disk.',
      );
      return;
    }
    if (this.#blockedBeforeShutdown || this.#outageReported) {
      alert(
        this.#logger,
        'error',
        'undelivered',
        `${count} trace(s) were not delivered before shutdown (${this.#blocked ?? `last error: ${this.#lastFailure}`}).`,
      );
      return;
    }
    if (this.#blockedCause !== undefined) {
      // A 401/404 met first during shutdown never paused, so nothing said what to fix: a script
      // that only calls shutdown() would lose its traces in silence.
      this.#outageReported = true;
      alert(
        this.#logger,
        'error',
        this.#blockedCause,
        `${whatToFix(this.#blockedCause, this.#applicationLabel())} ${count} trace(s) were not delivered before shutdown.`,
      );
      return;
    }
    if (this.#lastFailure === '') return;
    this.#outageReported = true;
    const failingFor = Math.round((this.#now() - this.#failingSince) / 1000);
    alert(
      this.#logger,
      'error',
      'outage',
      `${count} trace(s) were not delivered before shutdown: no request succeeded for ${failingFor} s; ` +
        `last error: ${this.#lastFailure}.`,
    );
  }

  /** A request failed, sorted by `classifyFailure`. */
  failed(failure: SendFailure): void {
    // The service answered: these traces are the problem, not delivery.
    if (failure.kind === 'rejected' || failure.kind === 'too-large') return;
    if (failure.kind === 'failed') {
      // 403, 405, 409, another 4xx: the batch is dropped, not retried, and the next ones likely
      // too; without this, nothing but diag says so.
      if (this.#refusalReported) return;
      this.#refusalReported = true;
      alert(
        this.#logger,
        'error',
        'failed',
        `Traces were dropped and retrying would not help: ${this.#redact(failure.description)}. ` +
          'Check AQM_API_KEY, AQM_BASE_URL and AQM_APPLICATION_ID (or the options). ' +
          'stats().droppedTraces.byReason.failed counts what is dropped this way.',
      );
      return;
    }
    const now = this.#now();
    this.#failingSince ??= now;
    if (failure.kind === 'pause') {
      this.#blocked = this.#redact(failure.description);
      this.#blockedCause = failure.cause;
      for (const listener of [...this.#listeners]) {
        try {
          listener(this.#blocked);
        } catch {
          // A waiter's failure is not ours to report.
        }
      }
      return; // PauseGate says what to fix.
    }
    this.#lastFailure = this.#redact(failure.description);
    const failingFor = now - this.#failingSince;
    if (this.#outageReported || failingFor < OUTAGE_ALERT_MS) return;
    this.#outageReported = true;
    alert(
      this.#logger,
      'error',
      'outage',
      `No trace could be delivered for ${Math.round(failingFor / 1000)} s; last error: ${this.#lastFailure}. ` +
        `Traces are kept and retried (${this.#describeQueue()}).`,
    );
  }
}
