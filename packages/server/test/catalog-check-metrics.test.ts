import { describe, expect, it } from 'vitest';
import { checkMetricsAgainst } from '../src/catalog/check-metrics.js';
import type { MetricDefinition } from '../src/catalog/eval-metrics.js';
import { checkMetrics, evalMetricCatalog } from '../src/catalog/index.js';

const KNOWN = evalMetricCatalog.map((metric) => metric.name).join(', ');

describe('checkMetrics', () => {
  it('accepts every catalog metric, bare and with in-range options', () => {
    expect(checkMetrics(evalMetricCatalog.map((metric) => ({ type: metric.name })))).toEqual([]);
    expect(
      checkMetrics([
        { type: 'answer_relevance', threshold: 0 },
        { type: 'faithfulness', threshold: 1, requireContext: true },
        { type: 'latency', threshold: 0.5, maxLatencyMs: 2500.5 },
        { type: 'conciseness', maxWords: 1 },
        { type: 'token_budget', maxTokens: 10_000_000 },
      ]),
    ).toEqual([]);
    expect(checkMetrics([])).toEqual([]);
  });

  it('names an unknown type at metrics[i].type with the known names', () => {
    expect(checkMetrics([{ type: 'latency' }, { type: 'foo' }])).toEqual([
      { path: 'metrics[1].type', message: `unknown metric type "foo"; known: ${KNOWN}` },
    ]);
    expect(KNOWN.startsWith('answer_relevance, faithfulness, ')).toBe(true);
  });

  it('rejects a threshold outside [0, 1] or of the wrong type', () => {
    expect(
      checkMetrics([
        { type: 'toxicity', threshold: 1.5 },
        { type: 'pii_leakage', threshold: -0.1 },
        { type: 'faithfulness', threshold: Number.NaN },
        { type: 'success_rate', threshold: '0.5' as unknown as number },
      ]),
    ).toEqual([
      { path: 'metrics[0].threshold', message: 'must be a number from 0 to 1, got 1.5' },
      { path: 'metrics[1].threshold', message: 'must be a number from 0 to 1, got -0.1' },
      { path: 'metrics[2].threshold', message: 'must be a number from 0 to 1, got NaN' },
      { path: 'metrics[3].threshold', message: 'must be a number from 0 to 1, got "0.5"' },
    ]);
  });

  it('lets a metric-specific field have its own range', () => {
    expect(
      checkMetrics([
        { type: 'latency', maxLatencyMs: 0 },
        { type: 'conciseness', maxWords: 2.5 },
        { type: 'faithfulness', requireContext: 'yes' },
      ]),
    ).toEqual([
      { path: 'metrics[0].maxLatencyMs', message: 'must be a number from 1 to 3600000, got 0' },
      { path: 'metrics[1].maxWords', message: 'must be a whole number from 1 to 100000, got 2.5' },
      { path: 'metrics[2].requireContext', message: 'must be a boolean, got "yes"' },
    ]);
  });

  it('rejects keys that are not additional fields of the metric', () => {
    expect(
      checkMetrics([
        { type: 'latency', maxWords: 10 },
        { type: 'toxicity', strictness: 2 },
      ]),
    ).toEqual([
      {
        path: 'metrics[0].maxWords',
        message: 'is not an option of metric "latency"; accepted: threshold, maxLatencyMs',
      },
      {
        path: 'metrics[1].strictness',
        message: 'is not an option of metric "toxicity"; accepted: threshold',
      },
    ]);
  });

  it('rejects a metric type listed twice, pointing at the first', () => {
    expect(
      checkMetrics([{ type: 'latency' }, { type: 'toxicity' }, { type: 'latency', maxLatencyMs: 1 }]),
    ).toEqual([
      { path: 'metrics[2].type', message: 'duplicate metric type "latency"; already at metrics[0]' },
    ]);
  });

  it('reports a non-string type and skips the options of an unknown metric', () => {
    expect(checkMetrics([{ type: 7 as unknown as string }, { type: 'nope', threshold: 9 }])).toEqual([
      { path: 'metrics[0].type', message: `must be a metric name string; known: ${KNOWN}` },
      { path: 'metrics[1].type', message: `unknown metric type "nope"; known: ${KNOWN}` },
    ]);
  });
});

describe('checkMetricsAgainst (mandatory and string fields)', () => {
  const definitions: MetricDefinition[] = [
    {
      id: 'custom',
      name: 'custom',
      label: 'Custom',
      description: 'A metric with a mandatory string option.',
      options: [
        { name: 'language', type: 'string', label: 'Language', mandatory: true, default: 'en' },
        { name: 'limit', type: 'number', label: 'Limit', mandatory: false, min: 5, max: 9, default: 6 },
      ],
    },
    { id: 'bare', name: 'bare', label: 'Bare', description: 'No options.', options: [] },
  ];

  it('requires mandatory fields and checks string types', () => {
    expect(checkMetricsAgainst(definitions, [{ type: 'custom', limit: 7 }])).toEqual([
      { path: 'metrics[0].language', message: 'is required by metric "custom"' },
    ]);
    expect(checkMetricsAgainst(definitions, [{ type: 'custom', language: 3, limit: 10 }])).toEqual([
      { path: 'metrics[0].language', message: 'must be a string, got 3' },
      { path: 'metrics[0].limit', message: 'must be a number from 5 to 9, got 10' },
    ]);
    expect(checkMetricsAgainst(definitions, [{ type: 'custom', language: 'fr' }])).toEqual([]);
  });

  it('says when a metric takes no options', () => {
    expect(checkMetricsAgainst(definitions, [{ type: 'bare', threshold: 0.5 }])).toEqual([
      { path: 'metrics[0].threshold', message: 'is not an option of metric "bare"; it takes no options' },
    ]);
  });
});
