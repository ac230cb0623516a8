import type { ReadableSpan } from '../sdk-types.js';
import { type AssemblerNotices, openCallsNotice, unfinishedCallsNotice } from './assembler-notices.js';
import { OpenModelCalls } from './open-model-calls.js';
import type { OpenTrace } from './open-trace.js';

/**
 * A trace whose root span ends while a model call of it is still open is held for that call: for
 * up to `waitMs` after its last span. If it completes without the call (idle, flush, eviction),
 * the call's span is added as it is, failed, and counted as unfinished.
 */
export class ModelCallWait {
  readonly #calls: OpenModelCalls;
  readonly #waitMs: number;
  readonly #notices: AssemblerNotices;
  readonly #now: () => number;
  #unfinished = 0;

  /**
   * @param maxOpenCalls - open model calls remembered at most (the oldest is forgotten, said once)
   * @param waitMs - how long a held trace waits after its last span
   */
  constructor(maxOpenCalls: number, waitMs: number, notices: AssemblerNotices, now: () => number) {
    this.#calls = new OpenModelCalls(maxOpenCalls);
    this.#waitMs = waitMs;
    this.#notices = notices;
    this.#now = now;
  }

  /** Model calls started and not ended. */
  get openCalls(): number {
    return this.#calls.size;
  }

  /** Model calls added to records with their span still open. */
  get unfinishedCalls(): number {
    return this.#unfinished;
  }

  /** Remembers a model call whose span just started. */
  started(span: ReadableSpan): void {
    if (this.#calls.started(span, span.spanContext().traceId) && this.#calls.forgotten === 1) {
      this.#notices.say('open-calls', openCallsNotice(this.#calls.max));
    }
  }

  /** Forgets a span that ended, if it was a remembered call. */
  ended(span: ReadableSpan): void {
    if (this.#calls.size > 0) this.#calls.ended(span);
  }

  /**
   * Whether a trace whose root has ended must wait for a model call of it still open; if so, it
   * is held from `now` (or since it was first held).
   */
  holds(entry: OpenTrace, now: number): boolean {
    if (!this.#calls.has(entry.traceId)) return false;
    entry.heldSinceMs ??= now;
    return true;
  }

  /** When a held trace is due, or `undefined` for a trace not held. */
  deadline(entry: OpenTrace): number | undefined {
    return entry.heldSinceMs === undefined ? undefined : entry.lastActivityMs + this.#waitMs;
  }

  /** Adds to a held trace that completes the model calls it still waits for, as they are (said, throttled by the owner). */
  addUnfinished(entry: OpenTrace): void {
    if (entry.heldSinceMs === undefined) return;
    const waitedMs = this.#now() - entry.heldSinceMs;
    const { spans, scopes } = this.#calls.takeUnfinished(entry.traceId, waitedMs);
    if (spans.length === 0) return;
    entry.spans.push(...spans);
    this.#unfinished += spans.length;
    this.#notices.say('unfinished-calls', unfinishedCallsNotice(entry.traceId, scopes, waitedMs));
  }
}
