import type { EvaluationTrace } from '@aqm/wire';
import { charBoundary } from '../privacy/text-sanitizer.js';

/** The result of one shrink step: the smaller record's JSON and the next step to try. */
export interface ShrunkRecord {
  json: string;
  nextStep: number;
}

const MIN_CUT_CHARS = 256;

/** The marker of an earlier cut: this file's, or the mapping's `…[truncated N chars]` at maxValueChars. */
const CUT_MARKER = /…\[(?:cut|truncated) (\d+) chars\]$/;

/**
 * Cuts `text` to `limit` characters with a visible marker, never splitting a surrogate pair. A
 * text cut before (here or when it was mapped) is cut again from its kept part, and its marker
 * counts all that was removed from the original.
 */
export function cutText(text: string, limit: number): string {
  const marker = CUT_MARKER.exec(text);
  const kept = marker === null ? text : text.slice(0, marker.index);
  const removedBefore = marker === null ? 0 : Number(marker[1]);
  if (kept.length <= limit) return text;
  const end = charBoundary(kept, limit);
  return `${kept.slice(0, end)}…[cut ${kept.length - end + removedBefore} chars]`;
}

function cutValues(record: EvaluationTrace, limit: number, maxContextItems: number): EvaluationTrace {
  const out: EvaluationTrace = {
    ...record,
    prompt: cutText(record.prompt, limit),
    response: cutText(record.response, limit),
  };
  if (record.errorMessage !== undefined) out.errorMessage = cutText(record.errorMessage, limit);
  if (record.context !== undefined) {
    out.context = record.context.slice(0, maxContextItems).map((item) => cutText(item, limit));
  }
  if (record.metadata !== undefined) {
    out.metadata = Object.fromEntries(
      Object.entries(record.metadata).map(([key, value]) => [
        key,
        typeof value === 'string' ? cutText(value, limit) : value,
      ]),
    );
  }
  return out;
}

/** The shrink steps, mildest first: drop the spans, then cut long values harder and harder. */
function applyStep(
  record: EvaluationTrace,
  step: number,
  maxValueChars: number,
): EvaluationTrace | undefined {
  switch (step) {
    case 0: {
      if (record.spans === undefined || record.spans.length === 0) return record;
      const { spans, ...rest } = record;
      return { ...rest, metadata: { ...record.metadata, 'aqm.droppedSpans': spans.length } };
    }
    case 1:
      return cutValues(record, Math.max(MIN_CUT_CHARS * 4, Math.floor(maxValueChars / 8)), 20);
    case 2:
      return cutValues(record, MIN_CUT_CHARS, 3);
    default:
      return undefined;
  }
}

/**
 * Makes a record that the service found too large (413 for it alone) smaller, starting at
 * `step`; steps that do not make it smaller are skipped. `undefined` when no step is left: the
 * record is then given up.
 *
 * @example
 * const smaller = shrinkRecord(json, 0, 32768); // without its spans
 */
export function shrinkRecord(json: string, step: number, maxValueChars: number): ShrunkRecord | undefined {
  let record: EvaluationTrace;
  try {
    record = JSON.parse(json) as EvaluationTrace;
  } catch {
    return undefined;
  }
  for (let current = step; ; current += 1) {
    const smaller = applyStep(record, current, maxValueChars);
    if (smaller === undefined) return undefined;
    const smallerJson = JSON.stringify(smaller);
    if (smallerJson.length < json.length) return { json: smallerJson, nextStep: current + 1 };
  }
}
