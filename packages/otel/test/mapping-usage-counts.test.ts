import { type DiagLogger, DiagLogLevel, diag } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetNoticesForTests } from '../src/notices.js';
import { chatSpan, map } from './mapping-helpers/chat-span.js';
import { buildTrace, type SpanSpec } from './mapping-helpers/spans.js';

// A token count that is not a safe non-negative integer is left out, said once per reason
// through diag; the rest of the record (prompt, response, the other counts) goes.

class Warnings implements DiagLogger {
  readonly lines: string[] = [];
  warn = (...args: unknown[]) => {
    // The component logger puts its namespace first.
    this.lines.push(args.join(' '));
  };
  error = () => {};
  info = () => {};
  debug = () => {};
  verbose = () => {};
}

function callWith(input: unknown, output: unknown = 5): SpanSpec {
  // Attribute values as an OTLP int64 may arrive: a string, a bigint, a number beyond 2^53.
  return chatSpan('q', 'a', {
    'gen_ai.usage.input_tokens': input as number,
    'gen_ai.usage.output_tokens': output as number,
  });
}

let warnings: Warnings;
beforeEach(() => {
  resetNoticesForTests();
  warnings = new Warnings();
  diag.setLogger(warnings, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
});
afterEach(() => {
  diag.disable();
});

describe('token counts out of range', () => {
  it.each([
    ['int64 max (as a number it reads 2^63)', Number(9223372036854775807n), 'too large'],
    ['2^53', 2 ** 53, 'too large'],
    ['int64 max as a string', '9223372036854775807', 'too large'],
    ['negative', -3, 'negative'],
    ['fractional', 12.5, 'not a whole number'],
  ])('%s is left out, the rest of the record goes, and diag says so', (_name, input, reason) => {
    const record = map(buildTrace(callWith(input)).spans);
    expect(record).toMatchObject({ prompt: 'q', response: 'a' });
    expect(record.usage).toEqual({ outputTokens: 5 });
    expect(warnings.lines).toHaveLength(1);
    expect(warnings.lines[0]).toContain('token count');
    expect(warnings.lines[0]).toContain(reason);
  });

  it('int64 max as a bigint (which the SDK refuses, but a hand-made span may hold) is left out', () => {
    const built = buildTrace(callWith(1));
    (built.spans[0]!.attributes as Record<string, unknown>)['gen_ai.usage.input_tokens'] =
      9223372036854775807n;
    expect(map(built.spans).usage).toEqual({ outputTokens: 5 });
    expect(warnings.lines.join('\n')).toContain('too large');
  });

  it('NaN is left out', () => {
    const record = map(buildTrace(callWith(Number.NaN)).spans);
    expect(record.usage).toEqual({ outputTokens: 5 });
  });

  it('2^53 - 1 is kept', () => {
    const record = map(buildTrace(callWith(2 ** 53 - 1, 0)).spans);
    expect(record.usage).toEqual({ inputTokens: 2 ** 53 - 1, outputTokens: 0, totalTokens: 2 ** 53 - 1 });
    expect(warnings.lines).toHaveLength(0);
  });

  it('a sum beyond 2^53 - 1 is left out, the other sums kept', () => {
    const built = buildTrace({ name: 'POST /ask', children: [callWith(2 ** 52, 1), callWith(2 ** 52, 2)] });
    const record = map(built.spans);
    expect(record.usage).toEqual({ outputTokens: 3 });
    expect(warnings.lines).toHaveLength(1);
    expect(warnings.lines[0]).toContain('sum');
  });

  it('is said once per reason and process', () => {
    for (let i = 0; i < 3; i += 1) map(buildTrace(callWith(2 ** 60)).spans);
    map(buildTrace(callWith(-1)).spans);
    map(buildTrace(callWith(-2)).spans);
    expect(warnings.lines).toHaveLength(2);
  });
});
