import { type EntityPattern, patternSpans } from './patterns.js';
import type { TextSpan } from './text.js';

/** Something a detector found in a text: where, what, and how sure (0..1). */
export interface Finding extends TextSpan {
  /** Entity name, also the `mask` placeholder: `EMAIL_ADDRESS` → `[EMAIL]`. */
  entity: string;
  /** Confidence that this span is a violation, in [0, 1]. */
  weight: number;
}

/**
 * Sorts findings and merges the ones that overlap: the merged span covers all of them, takes
 * the entity of the longest (the earliest listed on a tie) and the highest weight. Spans that
 * only touch stay apart.
 */
export function mergeFindings(findings: readonly Finding[]): Finding[] {
  const ordered = findings
    .map((finding, order) => ({ finding, order }))
    .sort((a, b) => a.finding.start - b.finding.start || a.order - b.order);
  const merged: Array<Finding & { longest: number }> = [];
  for (const { finding } of ordered) {
    const last = merged[merged.length - 1];
    const length = finding.end - finding.start;
    if (last && finding.start < last.end) {
      if (length > last.longest) {
        last.entity = finding.entity;
        last.longest = length;
      }
      last.end = Math.max(last.end, finding.end);
      last.weight = Math.max(last.weight, finding.weight);
    } else {
      merged.push({ ...finding, longest: length });
    }
  }
  return merged.map(({ longest: _longest, ...finding }) => finding);
}

/** Every match of the patterns (those of `entities` only, when given), merged. Weight 1 each. */
export function findPatterns<E extends string>(
  text: string,
  patterns: ReadonlyArray<EntityPattern<E>>,
  entities?: ReadonlySet<string>,
): Finding[] {
  const found: Finding[] = [];
  for (const pattern of patterns) {
    if (entities && !entities.has(pattern.entity)) continue;
    for (const { start, end } of patternSpans(pattern, text)) {
      if (pattern.valid && !pattern.valid(text.slice(start, end))) continue;
      found.push({ start, end, entity: pattern.entity, weight: 1 });
    }
  }
  return mergeFindings(found);
}

/**
 * How likely a text is a violation, given independent findings: 1 − Π(1 − weight).
 * No findings → 0; one finding of weight 0.9 → 0.9; two of 0.5 → 0.75.
 */
export function combinedWeight(findings: readonly Finding[]): number {
  return 1 - findings.reduce((clean, finding) => clean * (1 - finding.weight), 1);
}

/** `EMAIL_ADDRESS ×2, PHONE_NUMBER ×1`, in order of first appearance. */
export function countByEntity(findings: readonly Finding[]): string {
  const counts = new Map<string, number>();
  for (const finding of findings) counts.set(finding.entity, (counts.get(finding.entity) ?? 0) + 1);
  return [...counts].map(([entity, count]) => `${entity} ×${count}`).join(', ');
}
