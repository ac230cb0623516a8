import { INJECTION_PHRASES } from '../phrase-lists.js';
import type { MetricEvaluator } from '../types.js';
import { scored } from './options.js';
import { describeVerdict, judgePhrases } from './weighted-phrases.js';

const NAME = 'prompt_injection';

/**
 * Prompt injection: known attack phrases in the prompt, each with a weight; the score is
 * 1 − risk, where risk = 1 − Π(1 − weight) over the (merged) matches.
 */
export const promptInjection: MetricEvaluator = {
  metric: NAME,
  evaluate(trace, metric) {
    const verdict = judgePhrases(trace.prompt, INJECTION_PHRASES, 'PROMPT_INJECTION');
    if (verdict.count === 0) {
      return scored(metric, NAME, 1, 'No known prompt-injection phrase was found in the prompt.');
    }
    return scored(
      metric,
      NAME,
      1 - verdict.risk,
      describeVerdict(verdict, 'prompt-injection phrase', 'prompt'),
    );
  },
};
