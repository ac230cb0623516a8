/**
 * The runs that have started and not yet ended, bounded so a handler cannot leak: LangChain does
 * not always report an end (a consumer that stops reading a stream, a crashed custom runnable).
 */
import type { Span } from '@opentelemetry/api';
import type { OperationName } from './attributes.js';

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
 * A `Map` of open runs in start order, holding at most `maxOpenRuns` runs, none older than
 * `maxRunAgeMs` once the next run starts (the sweep is lazy: it costs nothing while runs end in
 * time). Evicted runs go to `onEvict`, which ends their spans.
 */
export class OpenRuns {
  readonly #runs = new Map<string, OpenRun>();
  readonly #maxOpenRuns: number;
  readonly #maxRunAgeMs: number;
  readonly #onEvict: (runId: string, run: OpenRun, reason: EvictionReason) => void;

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
  }

  /** The open run of `runId`. */
  get(runId: string | undefined): OpenRun | undefined {
    return runId === undefined ? undefined : this.#runs.get(runId);
  }

  /** Removes and returns the open run of `runId` (when it ends). */
  take(runId: string): OpenRun | undefined {
    const run = this.#runs.get(runId);
    if (run !== undefined) this.#runs.delete(runId);
    return run;
  }

  /** Ends every run older than the age limit at `now`. Runs are in start order, so this stops at the first young one. */
  sweep(now: number): void {
    for (const [runId, run] of this.#runs) {
      if (now - run.startedAt <= this.#maxRunAgeMs) break;
      this.#evict(runId, 'too_old');
    }
  }

  #evict(runId: string, reason: EvictionReason): void {
    const run = this.#runs.get(runId);
    this.#runs.delete(runId);
    if (run !== undefined) this.#onEvict(runId, run, reason);
  }
}
