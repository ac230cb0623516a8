import type { Metric } from '@aqm/wire';
import { metricEvaluators } from './metrics/registry.js';
import type { MetricEvaluator, MetricScore, ScorableTrace } from './types.js';

/** {@link scoreTrace} with a given evaluator map (tests pass their own). */
export function scoreTraceWith(
  evaluators: ReadonlyMap<string, MetricEvaluator>,
  trace: ScorableTrace,
  metrics: readonly Metric[],
): MetricScore[] {
  return metrics.flatMap((metric) => {
    const evaluator = evaluators.get(metric.type);
    if (!evaluator) return [];
    try {
      return [evaluator.evaluate(trace, metric)];
    } catch (error) {
      // Scoring runs after a submission was accepted: a defect in one evaluator must not
      // lose the others' results, so it is recorded as a failed score instead of thrown.
      const reason = error instanceof Error ? error.message : String(error);
      return [
        { metric: metric.type, score: 0, passed: false, explanation: `The evaluator failed: ${reason}.` },
      ];
    }
  });
}

/**
 * Scores a trace with each configured metric, in order, using the local deterministic
 * evaluators (no network, no randomness, no clock). Metrics whose `type` is not in the
 * catalog are skipped (`checkMetrics` keeps them out of stored configurations).
 * @example
 * ```ts
 * const scores = scoreTrace(
 *   { prompt: 'What is the refund policy?', response: 'Refunds are accepted within 30 days.',
 *     startTime: '2026-01-31T12:00:00Z', endTime: '2026-01-31T12:00:02Z', status: 'success' },
 *   [{ type: 'answer_relevance' }, { type: 'latency', maxLatencyMs: 1000 }],
 * );
 * // [{ metric: 'answer_relevance', score: 0.5, passed: true, threshold: 0.5, explanation: '...' },
 * //  { metric: 'latency', score: 0.5, passed: false, threshold: 1, explanation: '...' }]
 * ```
 */
export function scoreTrace(trace: ScorableTrace, metrics: Metric[]): MetricScore[] {
  return scoreTraceWith(metricEvaluators, trace, metrics);
}
