import { guardrailComponentSchema } from '@aqm/wire';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { guardrailValidators } from '../src/scoring/guardrails/registry.js';
import { runGuardrailsWith } from '../src/scoring/guardrails/run-guardrails.js';
import { runGuardrails } from '../src/scoring/index.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('runGuardrails', () => {
  it('passes with no validators and leaves the text as it is', () => {
    expect(runGuardrails('input', 'Hello', [])).toMatchObject({
      stage: 'input',
      passStatus: 'success',
      finalContent: 'Hello',
      components: [],
      categories: [],
    });
  });

  it('reports one wire-valid component per validator, in order', () => {
    const run = runGuardrails('output', 'Mail ann@example.com', [
      { type: 'toxicity', on_fail: 'fail' },
      { type: 'pii', on_fail: 'mask' },
    ]);
    expect(guardrailComponentSchema.array().parse(run.components)).toEqual(run.components);
    expect(run.components.map((c) => [c.type, c.passed, c.onFail])).toEqual([
      ['toxicity', true, 'fail'],
      ['pii', false, 'mask'],
    ]);
    expect(run).toMatchObject({ stage: 'output', passStatus: 'error', finalContent: 'Mail [EMAIL]' });
  });

  it('lists the categories of the failed validators only, each once', () => {
    const run = runGuardrails('input', 'You idiot, mail ann@example.com or call 555-123-4567', [
      { type: 'pii', on_fail: 'mask', config: { entities: ['EMAIL_ADDRESS'] } },
      { type: 'secrets', on_fail: 'mask' },
      { type: 'toxicity', on_fail: 'mask' },
      { type: 'pii', on_fail: 'mask', config: { entities: ['PHONE_NUMBER'] } },
    ]);
    expect(run.components.map((c) => c.passed)).toEqual([false, true, false, false]);
    expect(run.categories).toEqual(['pii', 'toxicity']);
    expect(run.passStatus).toBe('error');
    expect(run.finalContent).toBe('You [TOXIC_LANGUAGE], mail [EMAIL] or call [PHONE]');
  });

  it('feeds each validator the content the previous ones left', () => {
    // The second pii validator sees the masked text, so it passes.
    const run = runGuardrails('output', 'Mail ann@example.com', [
      { type: 'pii', on_fail: 'mask' },
      { type: 'pii', on_fail: 'fail' },
    ]);
    expect(run.components.map((c) => c.passed)).toEqual([false, true]);
    expect(run.finalContent).toBe('Mail [EMAIL]');
  });

  it('keeps the content blocked after a fail, while later validators still report', () => {
    const run = runGuardrails('output', 'You idiot, mail ann@example.com', [
      { type: 'toxicity', on_fail: 'fail' },
      { type: 'pii', on_fail: 'mask' },
    ]);
    expect(run.finalContent).toBe('');
    expect(run.components.map((c) => c.message)).toEqual([
      'found 1 toxic term; score 0.6 reached the threshold 0.5; the content would be blocked',
      'found 1 PII entity (EMAIL_ADDRESS ×1); the content would already be blocked',
    ]);
  });

  it('skips validator types it does not know', () => {
    const run = runGuardrails('input', 'ann@example.com', [
      { type: 'nope', on_fail: 'fail' },
      { type: 'pii', on_fail: 'filter' },
    ]);
    expect(run.components.map((c) => c.type)).toEqual(['pii']);
    expect(run.finalContent).toBe('');
    expect(run.passStatus).toBe('error');
  });

  it('falls back to defaults for settings outside the template', () => {
    const run = runGuardrails('input', 'ann@example.com', [
      { type: 'pii', on_fail: 'mask', config: { entities: 'EMAIL_ADDRESS' } },
    ]);
    expect(run.finalContent).toBe('[EMAIL]');
  });

  it('handles empty and unicode text', () => {
    const validators = [...guardrailValidators.keys()].map((type) => ({ type, on_fail: 'fail' as const }));
    expect(runGuardrails('input', '', validators)).toMatchObject({ passStatus: 'success', finalContent: '' });
    const unicode = '日本語のテキスト。Ça va? 👍 ann@example.com';
    expect(runGuardrails('output', unicode, [{ type: 'pii', on_fail: 'mask' }]).finalContent).toBe(
      '日本語のテキスト。Ça va? 👍 [EMAIL]',
    );
  });

  it('measures each validator and the run with performance.now, rounded to 3 decimals', () => {
    // run start, pii start/end, secrets start/end, run end
    const ticks = [100, 100.1234567, 100.5, 101.2, 101.7004, 102.25];
    vi.spyOn(performance, 'now').mockImplementation(() => ticks.shift() ?? Number.NaN);
    const run = runGuardrailsWith(guardrailValidators, 'input', 'plain text', [
      { type: 'pii', on_fail: 'mask' },
      { type: 'secrets', on_fail: 'mask' },
    ]);
    expect(run.components.map((c) => c.latencyMs)).toEqual([0.377, 0.5]);
    expect(run.latencyMs).toBe(2.25);
  });
});
