import type { MetricEvaluator } from '../types.js';
import { scored } from './options.js';

const NAME = 'success_rate';

/** Success rate: 1 for a trace with status `success`, 0 for `error`; its mean is the success rate. */
export const successRate: MetricEvaluator = {
  metric: NAME,
  evaluate(trace, metric) {
    return trace.status === 'success'
      ? scored(metric, NAME, 1, 'The trace completed with status success.')
      : scored(metric, NAME, 0, 'The trace ended with status error.');
  },
};
