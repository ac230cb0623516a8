import type { Trace } from '@aqm/client';
import { describe, expect, it } from 'vitest';
import { formatTrace } from '../../../examples/local-env/recorded-traces.mjs';

function trace(overrides: Partial<Trace>): Trace {
  return {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    status: 'success',
    startTime: '2026-01-01T00:00:00.000Z',
    endTime: '2026-01-01T00:00:00.013Z',
    spanCount: 2,
    model: 'gpt-4o-mini',
    prompt: 'hello',
    response: 'hi',
    evaluationResults: [],
    ...overrides,
  } as Trace;
}

describe('formatTrace of example-local-env', () => {
  it('shows control characters from end users and the model as \\uXXXX, on the lines they belong to', () => {
    const text = formatTrace(
      trace({
        prompt: 'clear\u001b[2J\u001b]52;c;ZXZpbA==\u0007 me',
        response: 'x\u009b31m\u202eevil',
        model: 'gpt\u001b[31m',
        sessionId: 's1\ntrace forged',
      }),
    );
    const lines = text.split('\n');
    expect(lines).toHaveLength(4);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may be left
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(lines[0]).toContain('gpt\\u001b[31m');
    expect(lines[0]).toContain('session s1\\u000atrace forged');
    expect(lines[1]).toBe('  prompt:   clear\\u001b[2J\\u001b]52;c;ZXZpbA==\\u0007 me');
    expect(lines[2]).toBe('  response: x\\u009b31m\\u202eevil');
  });

  it('leaves ordinary text as it is, line breaks joined', () => {
    const lines = formatTrace(trace({ prompt: 'Où est\n  la gare ?', response: 'À droite.' })).split('\n');
    expect(lines[1]).toBe('  prompt:   Où est la gare ?');
    expect(lines[2]).toBe('  response: À droite.');
  });
});
