import type { MetricEvaluator } from '../types.js';
import { budgetScore } from './budget.js';
import { numberOption, scored } from './options.js';

const NAME = 'token_budget';

/**
 * Token budget: `usage.totalTokens` (or input + output tokens) against `maxTokens`; 1 within,
 * else maxTokens / tokens. A trace without usage scores 1.
 */
export const tokenBudget: MetricEvaluator = {
  metric: NAME,
  evaluate(trace, metric) {
    const budget = numberOption(metric, NAME, 'maxTokens');
    const usage = trace.usage;
    const total =
      usage?.totalTokens ??
      (usage?.inputTokens !== undefined || usage?.outputTokens !== undefined
        ? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0)
        : undefined);
    if (total === undefined) {
      return scored(metric, NAME, 1, 'The trace reported no token usage, so it is not penalised.');
    }
    const verdict = total <= budget ? 'within' : 'over';
    return scored(
      metric,
      NAME,
      budgetScore(total, budget),
      `The trace used ${total} tokens, ${verdict} the budget of ${budget}.`,
    );
  },
};
