import { describe, expect, it } from 'vitest';
import { evalMetricCatalog, validatorCatalog } from '../src/catalog/index.js';
import { guardrailValidators } from '../src/scoring/guardrails/registry.js';
import { scoreTrace } from '../src/scoring/index.js';
import { metricEvaluators } from '../src/scoring/metrics/registry.js';
import { scoreTraceWith } from '../src/scoring/score-trace.js';
import type { MetricEvaluator, ScorableTrace } from '../src/scoring/types.js';

const trace: ScorableTrace = {
  prompt: 'What is the refund policy?',
  response: 'Refunds are accepted within 30 days.',
  context: ['Refunds are accepted within 30 days.'],
  startTime: '2026-01-31T12:00:00.000Z',
  endTime: '2026-01-31T12:00:01.000Z',
  status: 'success',
  usage: { inputTokens: 10, outputTokens: 8, totalTokens: 18 },
};

describe('catalogs and implementations do not drift', () => {
  it('has an evaluator for every catalog metric and no other', () => {
    expect([...metricEvaluators.keys()].sort()).toEqual(evalMetricCatalog.map((m) => m.name).sort());
  });

  it('has an implementation for every catalog validator and no other', () => {
    expect([...guardrailValidators.keys()].sort()).toEqual(validatorCatalog.map((v) => v.type).sort());
  });
});

describe('scoreTrace', () => {
  it('scores every catalog metric in [0, 1] with its default threshold, in configuration order', () => {
    const metrics = evalMetricCatalog.map((metric) => ({ type: metric.name })).reverse();
    const scores = scoreTrace(trace, metrics);
    expect(scores.map((s) => s.metric)).toEqual(metrics.map((m) => m.type));
    for (const result of scores) {
      expect(result.score).toBeGreaterThanOrEqual(0);
      expect(result.score).toBeLessThanOrEqual(1);
      expect(result.passed).toBe(result.score >= (result.threshold ?? Number.NaN));
      expect(result.explanation).toMatch(/^[A-Z0-9].*\.$/);
    }
  });

  it('is deterministic: the same input gives the same scores', () => {
    const metrics = evalMetricCatalog.map((metric) => ({ type: metric.name }));
    expect(scoreTrace({ ...trace }, metrics)).toEqual(scoreTrace({ ...trace }, metrics));
  });

  it('skips metric types it has no evaluator for, and scores nothing for no metrics', () => {
    expect(scoreTrace(trace, [{ type: 'unknown' }, { type: 'success_rate' }]).map((s) => s.metric)).toEqual([
      'success_rate',
    ]);
    expect(scoreTrace(trace, [])).toEqual([]);
  });

  it('records a failing evaluator as a failed score and goes on with the others', () => {
    const broken: MetricEvaluator = {
      metric: 'broken',
      evaluate() {
        throw new Error('boom');
      },
    };
    const evaluators = new Map([...metricEvaluators, ['broken', broken]]);
    expect(scoreTraceWith(evaluators, trace, [{ type: 'broken' }, { type: 'success_rate' }])).toEqual([
      { metric: 'broken', score: 0, passed: false, explanation: 'The evaluator failed: boom.' },
      expect.objectContaining({ metric: 'success_rate', score: 1 }),
    ]);
  });
});
