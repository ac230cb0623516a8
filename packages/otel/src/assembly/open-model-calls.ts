import { SpanStatusCode } from '@opentelemetry/api';
import { startsAsModelCall } from '../mapping/model-call-at-start.js';
import type { ReadableSpan } from '../sdk-types.js';
import { copySpan } from './held-span.js';

/**
 * The model calls whose spans have started and not ended yet (seen by `AqmSpanProcessor.onStart`),
 * by trace: a trace whose root ends while one of them is open waits for it, and when it never
 * ends (OpenInference and Traceloop end a call's span only on success) the record is made with
 * the span as it is. Spans are remembered as candidates and confirmed as model calls from their
 * attributes when their trace's root ends (OpenInference sets a span's attributes just after it
 * started). Bounded: past `max` open spans the oldest is forgotten (said once by the owner).
 */
export class OpenModelCalls {
  readonly #max: number;
  /** Each open span → its trace id; insertion order is start order. */
  readonly #spans = new Map<object, string>();
  /** Open spans per trace id. */
  readonly #perTrace = new Map<string, Set<ReadableSpan>>();
  /** Spans forgotten past the bound. */
  forgotten = 0;

  constructor(max: number) {
    this.#max = max;
  }

  /** How many open spans are remembered at most. */
  get max(): number {
    return this.#max;
  }

  /** Open spans remembered. */
  get size(): number {
    return this.#spans.size;
  }

  /** Remembers a started span; returns `true` when the oldest had to be forgotten for it. */
  started(span: ReadableSpan, traceId: string): boolean {
    if (this.#spans.has(span)) return false;
    this.#spans.set(span, traceId);
    const ofTrace = this.#perTrace.get(traceId);
    if (ofTrace === undefined) this.#perTrace.set(traceId, new Set([span]));
    else ofTrace.add(span);
    if (this.#spans.size <= this.#max) return false;
    const [oldest, oldestTrace] = this.#spans.entries().next().value as [ReadableSpan, string];
    this.#remove(oldest, oldestTrace);
    this.forgotten += 1;
    return true;
  }

  /** Forgets a span that ended (any span: most were never remembered). */
  ended(span: ReadableSpan): void {
    const traceId = this.#spans.get(span);
    if (traceId !== undefined) this.#remove(span, traceId);
  }

  /**
   * Whether a trace has model calls still open: its remembered spans that do not look like model
   * calls now that their attributes are set are forgotten.
   */
  has(traceId: string): boolean {
    const ofTrace = this.#perTrace.get(traceId);
    if (ofTrace === undefined) return false;
    for (const span of [...ofTrace]) {
      let call = false;
      try {
        call = startsAsModelCall(span.attributes ?? {});
      } catch {
        // Unreadable: not waited for.
      }
      if (!call) this.#remove(span, traceId);
    }
    return this.#perTrace.has(traceId);
  }

  /**
   * Removes the calls of a trace still open (it completes without them) and returns them as the
   * record takes them (see {@link unfinishedSnapshot}), with the instrumentation scopes they came from.
   */
  takeUnfinished(traceId: string, waitedMs: number): { spans: ReadableSpan[]; scopes: string[] } {
    const spans: ReadableSpan[] = [];
    const scopes = new Set<string>();
    if (!this.has(traceId)) return { spans, scopes: [] };
    const open = [...(this.#perTrace.get(traceId) ?? [])];
    for (const span of open) this.#remove(span, traceId);
    const endMs = Date.now();
    for (const span of open) {
      try {
        spans.push(unfinishedSnapshot(span, endMs, unfinishedCallMessage(waitedMs)));
        scopes.add(span.instrumentationScope?.name ?? 'unknown');
      } catch {
        // A span that cannot be read is left out, as if it had never been seen.
      }
    }
    return { spans, scopes: [...scopes] };
  }

  #remove(span: ReadableSpan, traceId: string): void {
    this.#spans.delete(span);
    const ofTrace = this.#perTrace.get(traceId);
    if (ofTrace === undefined) return;
    ofTrace.delete(span);
    if (ofTrace.size === 0) this.#perTrace.delete(traceId);
  }
}

/** What a record says of a model call whose span had not ended `waitedMs` after its trace's root span. */
export function unfinishedCallMessage(waitedMs: number): string {
  return (
    "The model call's span had not ended when its trace was recorded, " +
    `${Math.max(0, Math.round(waitedMs))} ms after the trace's root span ended: the call probably failed ` +
    'and its instrumentation did not end the span.'
  );
}

/** HrTime of epoch milliseconds. */
function hrTimeOf(ms: number): [number, number] {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

/**
 * A still-open span as the record takes it: what it holds now (its start attributes, events so
 * far), ended at `endMs` (epoch ms), status ERROR (its own message when it already says one, else
 * `message`). A copy: the instrumentation may still write to the live span.
 */
export function unfinishedSnapshot(span: ReadableSpan, endMs: number, message: string): ReadableSpan {
  const own = span.status;
  const failed = own?.code === SpanStatusCode.ERROR && typeof own.message === 'string' && own.message !== '';
  return copySpan(span, { ...span.attributes }, [...(span.events ?? [])], {
    endTime: hrTimeOf(endMs),
    status: failed ? own : { code: SpanStatusCode.ERROR, message },
  });
}
