import { type AssemblerNotices, lateSpansNotice } from './assembler-notices.js';
import type { TraceGroup } from './assembler-options.js';
import { RecentIds } from './recent-ids.js';

/**
 * The assembler's side of completion: hands each completed trace to `onComplete` (errors it throws
 * are counted, not passed on) and remembers the last `recentTraceIds` completed ids, so that spans
 * and log records of them arriving later are counted late instead of starting the trace again.
 */
export class CompletedTraces {
  readonly #recent: RecentIds;
  readonly #onComplete: (group: TraceGroup) => void;
  readonly #notices: AssemblerNotices;
  #lateSpans = 0;
  #lateLogs = 0;
  #callbackErrors = 0;

  constructor(recentTraceIds: number, onComplete: (group: TraceGroup) => void, notices: AssemblerNotices) {
    this.#recent = new RecentIds(recentTraceIds);
    this.#onComplete = onComplete;
    this.#notices = notices;
  }

  /** Spans of completed traces, dropped. */
  get lateSpans(): number {
    return this.#lateSpans;
  }

  /** Log records of completed traces, dropped. */
  get lateLogs(): number {
    return this.#lateLogs;
  }

  /** Times `onComplete` threw. */
  get callbackErrors(): number {
    return this.#callbackErrors;
  }

  /** Whether a span of this trace comes too late (the trace completed); if so it is counted and said. */
  isLateSpan(traceId: string): boolean {
    if (!this.#recent.has(traceId)) return false;
    this.#lateSpans += 1;
    this.#notices.say('late-spans', lateSpansNotice(traceId, this.#lateSpans));
    return true;
  }

  /** Whether a log record of this trace comes too late (the trace completed); if so it is counted. */
  isLateLog(traceId: string): boolean {
    if (!this.#recent.has(traceId)) return false;
    this.#lateLogs += 1;
    return true;
  }

  /** Remembers that a trace completed (before anything else is done with it). */
  remember(traceId: string): void {
    this.#recent.add(traceId);
  }

  /** Forgets that a trace completed, so that its later spans start it again. */
  forget(traceId: string): void {
    this.#recent.delete(traceId);
  }

  /** Hands a completed trace to `onComplete`; never throws. */
  handOver(group: TraceGroup): void {
    try {
      this.#onComplete(group);
    } catch {
      this.#callbackErrors += 1;
    }
  }
}
