import { combinedWeight, mergeFindings } from '../findings.js';
import { findPhrases, type WeightedPhrase } from '../phrase-lists.js';
import { plural } from '../text.js';
import { numberValue } from './config.js';
import type { GuardrailValidator } from './types.js';

/**
 * A validator scoring a text by a weighted phrase list: score = 1 − Π(1 − weight) over the
 * merged matches; it fails when there is a match and the score reaches `threshold`.
 */
export function phraseValidator(
  type: string,
  phrases: readonly WeightedPhrase[],
  entity: string,
  noun: string,
): GuardrailValidator {
  return {
    type,
    detect(text, config) {
      const threshold = numberValue(type, config, 'threshold');
      const findings = mergeFindings(findPhrases(text, phrases, entity));
      const score = Math.round(combinedWeight(findings) * 10_000) / 10_000;
      const failed = findings.length > 0 && score >= threshold;
      const relation = failed ? 'reached' : 'is below';
      const summary =
        findings.length === 0
          ? `no ${noun} found`
          : `found ${plural(findings.length, noun)}; score ${score} ${relation} the threshold ${threshold}`;
      return { findings, score, failed, summary };
    },
  };
}
