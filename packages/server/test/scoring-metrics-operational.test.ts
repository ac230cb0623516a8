import type { Metric } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { scoreTrace } from '../src/scoring/index.js';
import type { MetricScore, ScorableTrace } from '../src/scoring/types.js';

function score(metric: Metric, overrides: Partial<ScorableTrace> = {}): MetricScore {
  const trace: ScorableTrace = {
    prompt: 'Summarise the report.',
    response: 'The report shows growth.',
    startTime: '2026-01-31T12:00:00.000Z',
    endTime: '2026-01-31T12:00:02.000Z',
    status: 'success',
    ...overrides,
  };
  const [result] = scoreTrace(trace, [metric]);
  if (!result) throw new Error(`no score for ${metric.type}`);
  return result;
}

describe('latency', () => {
  it('scores 1 within the default budget of 5000 ms', () => {
    expect(score({ type: 'latency' })).toEqual({
      metric: 'latency',
      score: 1,
      passed: true,
      threshold: 1,
      explanation: 'The trace took 2000 ms, within the budget of 5000 ms.',
    });
  });

  it('scores budget / latency over the budget', () => {
    expect(score({ type: 'latency', maxLatencyMs: 500 })).toMatchObject({
      score: 0.25,
      passed: false,
      explanation: 'The trace took 2000 ms, over the budget of 500 ms.',
    });
    expect(score({ type: 'latency', maxLatencyMs: 1000, threshold: 0.5 })).toMatchObject({
      score: 0.5,
      passed: true,
    });
  });

  it('uses the trace times only, to the millisecond', () => {
    expect(
      score({ type: 'latency', maxLatencyMs: 2000 }, { endTime: '2026-01-31T12:00:02.001Z' }).score,
    ).toBe(Math.round((2000 / 2001) * 10_000) / 10_000);
    expect(score({ type: 'latency' }, { endTime: '2026-01-31T12:00:00.000Z' }).explanation).toBe(
      'The trace took 0 ms, within the budget of 5000 ms.',
    );
  });

  it('scores 0 when a time cannot be read', () => {
    expect(score({ type: 'latency' }, { startTime: 'yesterday' })).toMatchObject({ score: 0, passed: false });
  });

  it('falls back to the default budget when the stored one is invalid', () => {
    expect(score({ type: 'latency', maxLatencyMs: -5 }).explanation).toContain('budget of 5000 ms');
  });
});

describe('conciseness', () => {
  it('scores 1 within the default budget of 300 words', () => {
    expect(score({ type: 'conciseness' })).toEqual({
      metric: 'conciseness',
      score: 1,
      passed: true,
      threshold: 1,
      explanation: 'The response has 4 words, within the budget of 300.',
    });
  });

  it('scores maxWords / words over the budget', () => {
    expect(
      score({ type: 'conciseness', maxWords: 3 }, { response: 'one two three four five six' }),
    ).toMatchObject({
      score: 0.5,
      passed: false,
      explanation: 'The response has 6 words, over the budget of 3.',
    });
  });

  it('counts an empty response as 0 words and CJK characters as words', () => {
    expect(score({ type: 'conciseness' }, { response: '' }).explanation).toBe(
      'The response has 0 words, within the budget of 300.',
    );
    expect(score({ type: 'conciseness', maxWords: 2 }, { response: '退款政策' }).score).toBe(0.5);
  });
});

describe('success_rate', () => {
  it('scores 1 for success and 0 for error', () => {
    expect(score({ type: 'success_rate' })).toEqual({
      metric: 'success_rate',
      score: 1,
      passed: true,
      threshold: 1,
      explanation: 'The trace completed with status success.',
    });
    expect(score({ type: 'success_rate' }, { status: 'error' })).toMatchObject({
      score: 0,
      passed: false,
      explanation: 'The trace ended with status error.',
    });
    expect(score({ type: 'success_rate', threshold: 0 }, { status: 'error' }).passed).toBe(true);
  });
});

describe('token_budget', () => {
  it('scores 1 without usage and within the default budget of 4000', () => {
    expect(score({ type: 'token_budget' })).toMatchObject({
      score: 1,
      passed: true,
      explanation: 'The trace reported no token usage, so it is not penalised.',
    });
    expect(score({ type: 'token_budget' }, { usage: { totalTokens: 4000 } })).toMatchObject({
      score: 1,
      passed: true,
    });
  });

  it('adds input and output tokens when the total is missing', () => {
    expect(
      score({ type: 'token_budget', maxTokens: 100 }, { usage: { inputTokens: 150, outputTokens: 50 } }),
    ).toEqual({
      metric: 'token_budget',
      score: 0.5,
      passed: false,
      threshold: 1,
      explanation: 'The trace used 200 tokens, over the budget of 100.',
    });
    expect(score({ type: 'token_budget', maxTokens: 100 }, { usage: { outputTokens: 400 } }).score).toBe(
      0.25,
    );
  });
});
