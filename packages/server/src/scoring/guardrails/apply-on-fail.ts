import type { OnFail } from '@aqm/wire';
import { type Finding, mergeFindings } from '../findings.js';

/** The content after a failed validator's `on_fail`. */
export interface OnFailOutcome {
  content: string;
  /** `fail`: the content must not be passed on. */
  blocked: boolean;
}

const BLANK = /[ \t]/;
const CLOSING_PUNCTUATION = /[,.;:!?)\]]/;

/**
 * Replaces each finding with `<ENTITY>`. Findings are merged first and applied from the end
 * of the string backwards, so the offsets of the ones before stay valid.
 */
export function maskFindings(text: string, findings: readonly Finding[]): string {
  return mergeFindings(findings).reduceRight(
    (current, finding) =>
      `${current.slice(0, finding.start)}<${finding.entity}>${current.slice(finding.end)}`,
    text,
  );
}

/** Drops the blanks a removal left doubled: `a <x> b` → `a b`, `<x> b` → `b`, `a <x>.` → `a.`. */
function joinAfterRemoval(left: string, right: string): string {
  const before = left.at(-1);
  const after = right[0];
  if (after !== undefined && BLANK.test(after) && (before === undefined || /\s/.test(before))) {
    return left + right.replace(/^[ \t]+/, '');
  }
  if (
    before !== undefined &&
    BLANK.test(before) &&
    (after === undefined || after === '\n' || CLOSING_PUNCTUATION.test(after))
  ) {
    return left.replace(/[ \t]+$/, '') + right;
  }
  return left + right;
}

/**
 * Removes each finding (merged, applied from the end backwards), then the blank a removal
 * left doubled or dangling, so `Mail a@b.co now` becomes `Mail now`.
 */
export function filterFindings(text: string, findings: readonly Finding[]): string {
  return mergeFindings(findings).reduceRight(
    (current, finding) => joinAfterRemoval(current.slice(0, finding.start), current.slice(finding.end)),
    text,
  );
}

/**
 * Applies a failed validator's `on_fail` to the text: `mask` replaces findings with
 * `<ENTITY>`, `filter` removes them, `fail` blocks the content (left unchanged here; the run
 * reports empty final content).
 */
export function applyOnFail(text: string, findings: readonly Finding[], action: OnFail): OnFailOutcome {
  switch (action) {
    case 'mask':
      return { content: maskFindings(text, findings), blocked: false };
    case 'filter':
      return { content: filterFindings(text, findings), blocked: false };
    case 'fail':
      return { content: text, blocked: true };
  }
}
