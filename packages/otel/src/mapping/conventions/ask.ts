import type { SpanView } from '../span-view.js';
import type { ConventionReader } from './types.js';

/** The questions a convention reader may answer about a span: its optional methods. */
export type Question = Exclude<keyof ConventionReader, 'name' | 'detect'>;

/** What a reader answers to `question`. */
export type Answer<Q extends Question> = ReturnType<NonNullable<ConventionReader[Q]>>;

/**
 * Asks one reader one question about a span: `undefined` when the reader has no answer, has no
 * such method, or throws (one odd span or attribute must never cost the whole trace). It does
 * what `attempt(() => reader[question]?.(view), undefined)` does, without allocating a closure
 * per call in the loops that ask every reader about every span.
 */
export function ask<Q extends Question>(
  reader: ConventionReader,
  question: Q,
  view: SpanView,
): Answer<Q> | undefined {
  try {
    return reader[question]?.(view) as Answer<Q> | undefined;
  } catch {
    return undefined;
  }
}

/** Whether a span carries a reader's marks; `false` when its `detect` throws. */
export function detects(reader: ConventionReader, view: SpanView): boolean {
  try {
    return Boolean(reader.detect(view));
  } catch {
    return false;
  }
}
