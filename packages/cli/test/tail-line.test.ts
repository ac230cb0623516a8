import type { EvaluationResult, GuardrailEvaluationSummary, TraceSummary } from '@aqm/client';
import { describe, expect, it } from 'vitest';
import { createPalette } from '../src/render/colors.js';
import { formatTailLine } from '../src/tail/trace-line.js';

const trace: TraceSummary = {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  applicationId: 'app',
  startTime: '2026-01-31T12:00:01.000Z',
  endTime: '2026-01-31T12:00:02.000Z',
  spanCount: 0,
  status: 'error',
  prompt: 'p',
  response: 'r',
};
const result = (metric: string, score: number, passed: boolean): EvaluationResult => ({
  id: metric,
  traceId: trace.traceId,
  metric,
  score,
  passed,
  createdAt: trace.endTime,
});
const record = (stage: 'input' | 'output', passStatus: 'success' | 'error', categories: string[]) =>
  ({ guardrail_stage: stage, passStatus, categories }) as GuardrailEvaluationSummary;

describe('formatTailLine', () => {
  it('shows time, id, status, every score and each guardrail stage in order', () => {
    const line = formatTailLine(
      {
        trace,
        evaluationResults: [result('answer_relevance', 1, true), result('toxicity', 0.4, false)],
        guardrails: [record('output', 'success', []), record('input', 'error', ['prompt-injection'])],
      },
      createPalette(false),
    );
    expect(line).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:01 {2}4bf92f3577b34da6a3ce929d0e0e4736 {2}error {2}answer_relevance 1\.00 ✓ {2}toxicity 0\.40 ✗ {2}\| guardrails: input fail \[prompt-injection\], output pass$/,
    );
  });

  it('says when there are no scores, omits guardrails when none ran, and colours by outcome', () => {
    const plain = formatTailLine({ trace, evaluationResults: [], guardrails: [] }, createPalette(false));
    expect(plain).toMatch(/ {2}error {2}no scores$/);
    const coloured = formatTailLine(
      { trace, evaluationResults: [result('toxicity', 0.4, false)], guardrails: [] },
      createPalette(true),
    );
    expect(coloured).toContain('\u001b[31m0.40 ✗\u001b[39m');
    expect(coloured).toContain('\u001b[31merror\u001b[39m');
  });
});
