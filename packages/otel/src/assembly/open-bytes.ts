import type { LlmLogRecord } from '../mapping/llm-log-record.js';
import type { ReadableSpan } from '../sdk-types.js';
import { LOG_BYTES, SPAN_BYTES, TRACE_BYTES } from './heap-cost.js';
import { type Held, ValueTrimmer } from './held-span.js';
import type { OpenTrace } from './open-trace.js';

/**
 * The memory budget of the traces being assembled: cuts each span's long values as it arrives
 * (see {@link ValueTrimmer}), counts what every open trace holds, and says when the total is over
 * `maxBytes`, so the assembler completes the oldest open traces early. Without a `maxValueChars`
 * nothing is cut or bounded (the assembler used on its own).
 */
export class OpenBytes {
  readonly #trimmer: ValueTrimmer | undefined;
  readonly #maxBytes: number;
  #total = 0;
  /** Open traces completed early because the total was over the budget. */
  evicted = 0;

  constructor(maxValueChars: number | undefined, maxBytes: number | undefined) {
    this.#trimmer = maxValueChars === undefined ? undefined : new ValueTrimmer(maxValueChars);
    this.#maxBytes = maxBytes ?? Number.POSITIVE_INFINITY;
  }

  /** Bytes held by all open traces: an estimate of their heap (see heap-cost.ts). */
  get total(): number {
    return this.#total;
  }

  /** Whether the open traces hold more than the budget. */
  get over(): boolean {
    return this.#total > this.#maxBytes;
  }

  get maxBytes(): number {
    return this.#maxBytes;
  }

  /** The span as the trace should hold it; its bytes are counted against `entry`. */
  holdSpan(entry: OpenTrace, span: ReadableSpan): ReadableSpan {
    if (this.#trimmer === undefined) return span;
    let held: Held<ReadableSpan>;
    try {
      held = this.#trimmer.span(span);
    } catch {
      // A span whose fields cannot be read is held as it is; the mapping copes or skips it.
      held = { item: span, bytes: SPAN_BYTES };
    }
    return this.#count(entry, held);
  }

  /** The log record as the trace should hold it; its bytes are counted against `entry`. */
  holdLog(entry: OpenTrace, log: LlmLogRecord): LlmLogRecord {
    if (this.#trimmer === undefined) return log;
    let held: Held<LlmLogRecord>;
    try {
      held = this.#trimmer.log(log);
    } catch {
      held = { item: log, bytes: LOG_BYTES };
    }
    return this.#count(entry, held);
  }

  /** Forgets what a trace held (it completed). */
  release(entry: OpenTrace): void {
    this.#total -= entry.bytes;
    entry.bytes = 0;
  }

  #count<T>(entry: OpenTrace, held: Held<T>): T {
    // The trace's own entry is counted with its first item (`release` zeroes a completed one's).
    const bytes = entry.bytes === 0 ? held.bytes + TRACE_BYTES : held.bytes;
    entry.bytes += bytes;
    this.#total += bytes;
    return held.item;
  }
}
