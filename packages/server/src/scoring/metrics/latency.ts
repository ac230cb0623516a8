import type { MetricEvaluator } from '../types.js';
import { budgetScore } from './budget.js';
import { numberOption, scored } from './options.js';

const NAME = 'latency';

/**
 * Latency: `endTime − startTime` of the trace against `maxLatencyMs`; 1 within the budget,
 * else maxLatencyMs / latency. Unreadable times score 0.
 */
export const latency: MetricEvaluator = {
  metric: NAME,
  evaluate(trace, metric) {
    const budget = numberOption(metric, NAME, 'maxLatencyMs');
    const elapsed = Date.parse(trace.endTime) - Date.parse(trace.startTime);
    if (!Number.isFinite(elapsed)) {
      return scored(
        metric,
        NAME,
        0,
        'The start or end time of the trace cannot be read, so its latency is unknown.',
      );
    }
    const ms = Math.max(0, elapsed);
    const verdict = ms <= budget ? 'within' : 'over';
    return scored(
      metric,
      NAME,
      budgetScore(ms, budget),
      `The trace took ${ms} ms, ${verdict} the budget of ${budget} ms.`,
    );
  },
};
