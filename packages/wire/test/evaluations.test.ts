import { evaluationResultSchema, listEvaluationsQuerySchema } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { evaluationResult, TRACE_ID } from './fixtures.js';
import { accepted, rejected } from './parse-helpers.js';

describe('evaluationResultSchema', () => {
  it('accepts a result with and without threshold and explanation', () => {
    expect(accepted(evaluationResultSchema, evaluationResult())).toEqual(evaluationResult());
    const { threshold: _t, explanation: _e, ...bare } = evaluationResult();
    expect(accepted(evaluationResultSchema, bare)).toEqual(bare);
  });

  it('requires the other fields, with their types', () => {
    const { createdAt: _, ...noCreatedAt } = evaluationResult();
    expect(
      rejected(evaluationResultSchema, { ...noCreatedAt, score: '0.9', passed: 'yes' }).map((e) => e.path),
    ).toEqual(['score', 'passed', 'createdAt']);
  });
});

describe('listEvaluationsQuerySchema', () => {
  it('defaults page and limit; start, end, traceId and metric are optional', () => {
    expect(accepted(listEvaluationsQuerySchema, {})).toEqual({ page: 1, limit: 20 });
    expect(
      accepted(listEvaluationsQuerySchema, {
        limit: '100',
        start: '2026-01-01T00:00:00-05:00',
        traceId: TRACE_ID,
        metric: 'toxicity',
      }),
    ).toEqual({
      page: 1,
      limit: 100,
      start: '2026-01-01T05:00:00.000Z',
      traceId: TRACE_ID,
      metric: 'toxicity',
    });
  });

  it('rejects bad paging and a reversed range', () => {
    expect(rejected(listEvaluationsQuerySchema, { page: '0', limit: '0' })).toEqual([
      { path: 'page', message: 'must be an integer >= 1' },
      { path: 'limit', message: 'must be an integer from 1 to 100' },
    ]);
    expect(
      rejected(listEvaluationsQuerySchema, { start: '2026-01-01T00:00:01Z', end: '2026-01-01T00:00:00Z' }),
    ).toEqual([{ path: 'end', message: 'must be on or after start' }]);
  });
});
