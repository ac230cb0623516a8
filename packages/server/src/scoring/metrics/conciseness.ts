import { plural, words } from '../text.js';
import type { MetricEvaluator } from '../types.js';
import { budgetScore } from './budget.js';
import { numberOption, scored } from './options.js';

const NAME = 'conciseness';

/** Conciseness: the response's word count against `maxWords`; 1 within, else maxWords / words. */
export const conciseness: MetricEvaluator = {
  metric: NAME,
  evaluate(trace, metric) {
    const budget = numberOption(metric, NAME, 'maxWords');
    const count = words(trace.response).length;
    const verdict = count <= budget ? 'within' : 'over';
    return scored(
      metric,
      NAME,
      budgetScore(count, budget),
      `The response has ${plural(count, 'word')}, ${verdict} the budget of ${budget}.`,
    );
  },
};
