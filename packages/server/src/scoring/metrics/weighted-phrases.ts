import { combinedWeight, mergeFindings } from '../findings.js';
import { findPhrases, type WeightedPhrase } from '../phrase-lists.js';
import { figure, plural } from '../text.js';

/** What a phrase list found in a text: the merged findings and their combined weight (0..1). */
export interface PhraseVerdict {
  count: number;
  risk: number;
  /** The first match, quoted and shortened, for explanations. */
  example: string;
}

/** Runs a phrase list over `text` and sums up what it found. */
export function judgePhrases(
  text: string,
  phrases: readonly WeightedPhrase[],
  entity: string,
): PhraseVerdict {
  const findings = mergeFindings(findPhrases(text, phrases, entity));
  const first = findings[0];
  const sample = first ? text.slice(first.start, first.end).replace(/\s+/g, ' ') : '';
  const example = sample.length > 40 ? `${sample.slice(0, 37)}...` : sample;
  return { count: findings.length, risk: combinedWeight(findings), example: `"${example}"` };
}

/** `Found 2 toxic terms in the response (first "idiot"), a risk of 0.84.` */
export function describeVerdict(verdict: PhraseVerdict, what: string, where: string): string {
  return `Found ${plural(verdict.count, what)} in the ${where} (first ${verdict.example}), a risk of ${figure(verdict.risk)}.`;
}
