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

/** Said once: a trace reached `maxSpansPerTrace`. */
export function maxSpansNotice(traceId: string, maxSpans: number): string {
  return (
    `Trace ${traceId} reached maxSpansPerTrace (${maxSpans}): it was sent as it was, and its later ` +
    'spans are dropped (counted as late spans). Raise maxSpansPerTrace if traces this long are expected. ' +
    '(Said once.)'
  );
}

/** Said at most once a minute: open traces went over their byte bound. */
export function openBytesNotice(maxBytes: number, shed: number): string {
  return (
    `Open traces (whose root span has not ended) held more than ${maxBytes} bytes (maxQueueBytes): ` +
    `the ${shed} oldest were sent as they were, before they ended.`
  );
}

/**
 * Said when a span ends after its trace was sent (throttled by the owner): it is not in the
 * record. `late` counts every late span so far.
 */
export function lateSpansNotice(traceId: string, late: number): string {
  return (
    `A span of trace ${traceId} ended after the trace's root span had ended and its record was made, so it is ` +
    `not in the record (${late} late span${late === 1 ? '' : 's'} so far). End LLM spans before the span ` +
    "around them: await the model call, read a stream to the end, and with LangSmith's OTel mode await " +
    'client.awaitPendingTraceBatches() before ending the request span.'
  );
}
