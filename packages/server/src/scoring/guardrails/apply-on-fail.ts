import type { OnFail } from '@aqm/wire';
import { type Finding, mergeFindings } from '../findings.js';
import { placeholderOf } from '../placeholders.js';

/** The content after a failed validator's `on_fail`. */
export interface OnFailOutcome {
  content: string;
  /** `fail`: the content must not be passed on. */
  blocked: boolean;
}

const CLOSING_PUNCTUATION = /[,.;:!?)\]]/;

/**
 * Replaces each finding with `[ENTITY]`. Findings are merged first; the result is built in one
 * pass over the text (slicing the whole text once per finding was quadratic in findings).
 */
export function maskFindings(text: string, findings: readonly Finding[]): string {
  const parts: string[] = [];
  let from = 0;
  for (const finding of mergeFindings(findings)) {
    parts.push(text.slice(from, finding.start), placeholderOf(finding.entity));
    from = finding.end;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

const isBlank = (char: string | undefined) => char === ' ' || char === '\t';
const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

/**
 * Removes each finding (merged), then the blank a removal left doubled or dangling, so
 * `Mail a@b.co now` becomes `Mail now`: `a <x> b` → `a b`, `<x> b` → `b`, `a <x>.` → `a.`.
 * Removals are applied from the last backwards, each seeing the text before it as it was and
 * the text after it as already joined. Kept pieces are index ranges trimmed in place and joined
 * once at the end; trimming the whole remainder with a regex per removal was quadratic.
 */
export function filterFindings(text: string, findings: readonly Finding[]): string {
  const merged = mergeFindings(findings);
  const pieces: Array<[number, number]> = [];
  let from = 0;
  for (const finding of merged) {
    pieces.push([from, finding.start]);
    from = finding.end;
  }
  pieces.push([from, text.length]);
  // The first non-empty piece at or after the one right of the current removal, and for each
  // piece that was it, the one that was before (so emptied pieces are skipped once, not rescanned).
  let next = pieces.length;
  const after = new Int32Array(pieces.length);
  for (let i = merged.length - 1; i >= 0; i -= 1) {
    const right = pieces[i + 1] as [number, number];
    if (right[1] > right[0]) {
      after[i + 1] = next;
      next = i + 1;
    }
    const start = (merged[i] as Finding).start;
    const before = start > 0 ? text[start - 1] : undefined;
    const first = next < pieces.length ? text[(pieces[next] as [number, number])[0]] : undefined;
    if (isBlank(first) && (before === undefined || isSpace(before))) {
      // Drop the blanks starting the text after the removal (they may span several pieces).
      while (next < pieces.length) {
        const piece = pieces[next] as [number, number];
        while (piece[0] < piece[1] && isBlank(text[piece[0]])) piece[0] += 1;
        if (piece[0] < piece[1]) break;
        next = after[next] as number;
      }
    } else if (
      isBlank(before) &&
      (first === undefined || first === '\n' || CLOSING_PUNCTUATION.test(first))
    ) {
      const left = pieces[i] as [number, number];
      while (left[1] > left[0] && isBlank(text[left[1] - 1])) left[1] -= 1;
    }
  }
  return pieces.map(([pieceStart, pieceEnd]) => text.slice(pieceStart, pieceEnd)).join('');
}

/**
 * Applies a failed validator's `on_fail` to the text: `mask` replaces findings with
 * `[ENTITY]`, `filter` removes them, `fail` blocks the content (left unchanged here; the run
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
