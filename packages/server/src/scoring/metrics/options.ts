import type { Metric } from '@aqm/wire';
import { metricOptionProblem } from '../../catalog/check-metrics.js';
import { findMetricDefinition, type MetricOption } from '../../catalog/eval-metrics.js';
import { roundScore } from '../text.js';
import type { MetricScore } from '../types.js';

function optionOf(metricName: string, optionName: string): MetricOption {
  const option = findMetricDefinition(metricName)?.options.find((candidate) => candidate.name === optionName);
  // Only reachable through a code defect: a unit test pins every evaluator to a catalog entry.
  if (!option)
    throw new Error(`metric "${metricName}" has no option "${optionName}" in the eval metric catalog`);
  return option;
}

/**
 * The value of a metric option: the configured one when it passes the catalog check, else
 * the catalog default (a stored configuration was checked already; this keeps scoring total).
 */
export function optionValue(metric: Metric, metricName: string, optionName: string): unknown {
  const option = optionOf(metricName, optionName);
  const value = metric[optionName];
  return value !== undefined && metricOptionProblem(option, value) === undefined ? value : option.default;
}

/** A number option of a metric (see {@link optionValue}). */
export function numberOption(metric: Metric, metricName: string, optionName: string): number {
  return Number(optionValue(metric, metricName, optionName));
}

/** A boolean option of a metric (see {@link optionValue}). */
export function booleanOption(metric: Metric, metricName: string, optionName: string): boolean {
  return optionValue(metric, metricName, optionName) === true;
}

/** A metric score: rounded, compared with the metric's threshold (or the catalog default). */
export function scored(metric: Metric, metricName: string, score: number, explanation: string): MetricScore {
  const rounded = roundScore(Math.min(1, Math.max(0, score)));
  const threshold = numberOption(metric, metricName, 'threshold');
  return { metric: metricName, score: rounded, passed: rounded >= threshold, threshold, explanation };
}
