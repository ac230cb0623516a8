import { type FieldError, formatPath, type Metric } from '@aqm/wire';
import { describeValue } from '../describe-value.js';
import { type MetricDefinition, type MetricOption, metricDefinitions } from './eval-metrics.js';

/** Why `value` does not fit `option`, or `undefined` when it does. */
export function metricOptionProblem(option: MetricOption, value: unknown): string | undefined {
  if (option.type === 'number') {
    const bounds =
      option.min !== undefined && option.max !== undefined ? ` from ${option.min} to ${option.max}` : '';
    const kind = option.integer ? 'a whole number' : 'a number';
    const inRange =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (!option.integer || Number.isInteger(value)) &&
      (option.min === undefined || value >= option.min) &&
      (option.max === undefined || value <= option.max);
    return inRange ? undefined : `must be ${kind}${bounds}, got ${describeValue(value)}`;
  }
  return typeof value === option.type ? undefined : `must be a ${option.type}, got ${describeValue(value)}`;
}

function checkMetric(metric: Metric, definition: MetricDefinition, index: number): FieldError[] {
  const errors: FieldError[] = [];
  const accepted = definition.options.map((option) => option.name);
  for (const [key, value] of Object.entries(metric)) {
    if (key === 'type' || value === undefined) continue;
    const path = formatPath(['metrics', index, key]);
    const option = definition.options.find((candidate) => candidate.name === key);
    if (!option) {
      const known = accepted.length > 0 ? `accepted: ${accepted.join(', ')}` : 'it takes no options';
      errors.push({ path, message: `is not an option of metric "${definition.name}"; ${known}` });
      continue;
    }
    const problem = metricOptionProblem(option, value);
    if (problem) errors.push({ path, message: problem });
  }
  for (const option of definition.options) {
    if (option.mandatory && metric[option.name] === undefined) {
      errors.push({
        path: formatPath(['metrics', index, option.name]),
        message: `is required by metric "${definition.name}"`,
      });
    }
  }
  return errors;
}

/**
 * Checks monitoring metrics against metric definitions: each `type` names a definition (once),
 * and each other key is one of its options, of the right type and range. Errors carry
 * `errors[]` paths such as `metrics[1].type` and `metrics[0].threshold`.
 */
export function checkMetricsAgainst(
  definitions: readonly MetricDefinition[],
  metrics: Metric[],
): FieldError[] {
  const errors: FieldError[] = [];
  const known = definitions.map((definition) => definition.name).join(', ');
  const firstIndexOf = new Map<string, number>();
  metrics.forEach((metric, index) => {
    const typePath = formatPath(['metrics', index, 'type']);
    if (typeof metric.type !== 'string') {
      errors.push({ path: typePath, message: `must be a metric name string; known: ${known}` });
      return;
    }
    const definition = definitions.find((candidate) => candidate.name === metric.type);
    if (!definition) {
      errors.push({
        path: typePath,
        message: `unknown metric type ${describeValue(metric.type)}; known: ${known}`,
      });
      return;
    }
    const earlier = firstIndexOf.get(metric.type);
    if (earlier !== undefined) {
      errors.push({
        path: typePath,
        message: `duplicate metric type "${metric.type}"; already at ${formatPath(['metrics', earlier])}`,
      });
    } else {
      firstIndexOf.set(metric.type, index);
    }
    errors.push(...checkMetric(metric, definition, index));
  });
  return errors;
}

/**
 * Checks the `metrics` of a monitoring update against the eval metric catalog.
 * @example
 * ```ts
 * checkMetrics([{ type: 'latency', maxLatencyMs: 2000 }, { type: 'foo' }]);
 * // [{ path: 'metrics[1].type', message: 'unknown metric type "foo"; known: answer_relevance, ...' }]
 * ```
 */
export function checkMetrics(metrics: Metric[]): FieldError[] {
  return checkMetricsAgainst(metricDefinitions, metrics);
}
