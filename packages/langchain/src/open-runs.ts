/**
 * The runs that have started and not yet ended, bounded so a handler cannot leak: LangChain does
 * not always report an end (a consumer that stops reading a stream, a crashed custom runnable).
 */
import type { Span } from '@opentelemetry/api';
import type { OperationName } from './attributes.js';
import { handlerDiag } from './diag.js';

/** Shortest interval of the sweep timer, so a tiny `maxRunAgeMs` does not make it spin. */
const MIN_SWEEP_INTERVAL_MS = 1000;

/**
 * How often open runs are checked for age while any is open: half the age limit (at least 1 s), so
 * a stale run is ended at most about 1.5 × `maxRunAgeMs` after it started, even when no run starts.
 *
 * @example
 * sweepIntervalMs(600_000); // 300000
 */
export function sweepIntervalMs(maxRunAgeMs: number): number {
  return Math.max(MIN_SWEEP_INTERVAL_MS, Math.ceil(maxRunAgeMs / 2));
}

/** A started run and its span. */
export interface OpenRun {
  span: Span;
  /** The span's name (kept to rename it when a chain turns out to be an agent). */
  name: string;
  operation: OperationName;
  /** `Date.now()` when the run started. */
  startedAt: number;
  /** The requested model (model runs), when the start named one. */
  model?: string;
  /** Text streamed by `handleLLMNewToken` (model runs), kept up to the value cap. */
  streamed: string;
  /** Streamed characters past the cap, counted for the truncation marker. */
  streamedDropped: number;
}

/** Why a run was ended by the registry instead of by LangChain. */
export type EvictionReason = 'too_many_open_runs' | 'too_old';

/**
 * A `Map` of open runs in start order, holding at most `maxOpenRuns` runs. Runs older than
 * `maxRunAgeMs` are ended when the next run starts and, so that a handler that goes quiet does not
 * keep them forever, by a sweep timer (every `sweepIntervalMs(maxRunAgeMs)`) that runs only while
 * runs are open and never holds the process (unref'd). Evicted runs go to `onEvict`, which ends
 * their spans.
 */
export class OpenRuns {
  readonly #runs = new Map<string, OpenRun>();
  readonly #maxOpenRuns: number;
  readonly #maxRunAgeMs: number;
  readonly #onEvict: (runId: string, run: OpenRun, reason: EvictionReason) => void;
  #sweepTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    maxOpenRuns: number,
    maxRunAgeMs: number,
    onEvict: (runId: string, run: OpenRun, reason: EvictionReason) => void,
  ) {
    this.#maxOpenRuns = maxOpenRuns;
    this.#maxRunAgeMs = maxRunAgeMs;
    this.#onEvict = onEvict;
  }

  /** How many runs are open. */
  get size(): number {
    return this.#runs.size;
  }

  /**
   * Records a started run, first ending runs past the age limit and, at the cap, the oldest.
   *
   * @example
   * runs.add(runId, { span, name: 'chat', operation: 'chat', startedAt: Date.now(), streamed: '', streamedDropped: 0 });
   */
  add(runId: string, run: OpenRun): void {
    this.sweep(run.startedAt);
    while (this.#runs.size >= this.#maxOpenRuns) {
      const oldest = this.#runs.keys().next();
      if (oldest.done === true) break;
      this.#evict(oldest.value, 'too_many_open_runs');
    }
    this.#runs.set(runId, run);
    this.#armSweep();
  }

  /** The open run of `runId`. */
  get(runId: string | undefined): OpenRun | undefined {
    return runId === undefined ? undefined : this.#runs.get(runId);
  }

  /** Removes and returns the open run of `runId` (when it ends). */
  take(runId: string): OpenRun | undefined {
    const run = this.#runs.get(runId);
    if (run !== undefined) {
      this.#runs.delete(runId);
      this.#disarmSweepIfEmpty();
    }
    return run;
  }

  /** Ends every run older than the age limit at `now`. Runs are in start order, so this stops at the first young one. */
  sweep(now: number): void {
    for (const [runId, run] of this.#runs) {
      if (now - run.startedAt <= this.#maxRunAgeMs) break;
      this.#evict(runId, 'too_old');
    }
  }

  /** Starts the sweep timer when runs are open and it is not running. */
  #armSweep(): void {
    if (this.#sweepTimer !== undefined || this.#runs.size === 0) return;
    this.#sweepTimer = setInterval(() => {
      try {
        this.sweep(Date.now());
      } catch (error) {
        // A timer callback that throws would crash the app: report it instead.
        handlerDiag.error('sweeping stale LangChain runs failed', error);
      }
    }, sweepIntervalMs(this.#maxRunAgeMs));
    // Never keeps the process alive just to end runs that will not end.
    this.#sweepTimer.unref?.();
  }

  /** Stops the sweep timer once no run is open. */
  #disarmSweepIfEmpty(): void {
    if (this.#sweepTimer === undefined || this.#runs.size > 0) return;
    clearInterval(this.#sweepTimer);
    this.#sweepTimer = undefined;
  }

  #evict(runId: string, reason: EvictionReason): void {
    const run = this.#runs.get(runId);
    this.#runs.delete(runId);
    this.#disarmSweepIfEmpty();
    if (run !== undefined) this.#onEvict(runId, run, reason);
  }
}
