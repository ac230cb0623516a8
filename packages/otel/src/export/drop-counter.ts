import type { DiagLogger } from '@opentelemetry/api';
import type { PipelineDebug } from '../debug/pipeline-debug.js';
import type { DropReason } from './queued-trace.js';
import { ThrottledReporter } from './throttled-reporter.js';

/** Counts dropped traces by reason and reports each reason through `diag` at most once per interval. */
export class DropCounter {
  readonly #byReason: Record<string, number> = {};
  #total = 0;
  readonly #reporter: ThrottledReporter;

  readonly #debug: PipelineDebug | undefined;

  constructor(logger: DiagLogger, intervalMs: number, now: () => number, debug?: PipelineDebug) {
    this.#reporter = new ThrottledReporter(logger, intervalMs, now);
    this.#debug = debug;
  }

  /**
   * Counts `count` traces dropped for `reason` and reports `message` unless that reason was
   * reported lately; at debug, every drop, with the `traceIds` when the caller knows them.
   */
  add(reason: DropReason, count: number, message: string, traceIds?: readonly string[]): void {
    this.#debug?.dropped(reason, count, message, traceIds);
    this.#total += count;
    this.#byReason[reason] = (this.#byReason[reason] ?? 0) + count;
    this.#reporter.report(reason, 'warn', `Dropped trace(s), reason ${reason}: ${message}`);
  }

  /** A copy of the counters. */
  snapshot(): { total: number; byReason: Record<string, number> } {
    return { total: this.#total, byReason: { ...this.#byReason } };
  }
}
