import type { MetricEvaluator } from '../types.js';
import { answerRelevance } from './answer-relevance.js';
import { conciseness } from './conciseness.js';
import { faithfulness } from './faithfulness.js';
import { latency } from './latency.js';
import { piiLeakage } from './pii-leakage.js';
import { promptInjection } from './prompt-injection.js';
import { successRate } from './success-rate.js';
import { tokenBudget } from './token-budget.js';
import { toxicity } from './toxicity.js';

/** The evaluator of every eval metric catalog entry, keyed by metric name. */
export const metricEvaluators: ReadonlyMap<string, MetricEvaluator> = new Map(
  [
    answerRelevance,
    faithfulness,
    piiLeakage,
    promptInjection,
    toxicity,
    latency,
    conciseness,
    successRate,
    tokenBudget,
  ].map((evaluator) => [evaluator.metric, evaluator]),
);
