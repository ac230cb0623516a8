import type { AssemblerNotice } from './assembler-options.js';

/**
 * Passes the assembler's notices to its owner's `onNotice`: a listener that throws must not stop
 * assembly, and some notices are said only once.
 */
export class AssemblerNotices {
  readonly #onNotice: (kind: AssemblerNotice, message: string) => void;
  readonly #saidOnce = new Set<AssemblerNotice>();

  constructor(onNotice: (kind: AssemblerNotice, message: string) => void) {
    this.#onNotice = onNotice;
  }

  /** Tells the owner; never throws. */
  say(kind: AssemblerNotice, message: string): void {
    try {
      this.#onNotice(kind, message);
    } catch {
      // A notice must not stop assembly.
    }
  }

  /** Tells the owner the first time a notice of this kind comes; later ones are not built. */
  sayOnce(kind: AssemblerNotice, message: () => string): void {
    if (this.#saidOnce.has(kind)) return;
    this.#saidOnce.add(kind);
    this.say(kind, message());
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

/** Said on stderr (throttled): a trace was recorded with a model call's span that had not ended. */
export function unfinishedCallsNotice(traceId: string, scopes: readonly string[], waitedMs: number): string {
  return (
    `A model call's span (instrumentation ${scopes.join(', ') || 'unknown'}) had not ended when its trace ` +
    `${traceId} was recorded, ${Math.max(0, Math.round(waitedMs))} ms after the trace's root span ended: ` +
    'the call probably failed and the instrumentation did not end its span (some end it only on success). ' +
    'The trace was recorded as an error, with the span as it was.'
  );
}

/** Said once: more model calls were open at once than are watched. */
export function openCallsNotice(max: number): string {
  return (
    `More than ${max} model calls were in flight at once (maxOpenTraces): the oldest are no longer watched, ` +
    'so if one of them fails without its instrumentation ending its span, its trace may make no record. (Said once.)'
  );
}
