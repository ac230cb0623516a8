import { describe, expect, it } from 'vitest';
import { isoOf } from '../src/mapping/iso-time.js';
import { boundedStringify, parseJsonLoose } from '../src/mapping/json.js';
import { messagesFrom, messagesFromValue } from '../src/mapping/message-parsing.js';
import { promptTextOf, responseTextOf } from '../src/mapping/messages.js';

const prompt = (value: unknown) => promptTextOf(messagesFromValue(value) ?? []);
const response = (value: unknown) => responseTextOf(messagesFromValue(value) ?? []);

describe('message normalisation', () => {
  it.each([
    ['semconv parts', [{ role: 'user', parts: [{ type: 'text', content: 'A' }] }], 'A'],
    ['OpenAI content string', [{ role: 'user', content: 'B' }], 'B'],
    [
      'OpenAI content parts',
      [
        {
          role: 'user',
          content: [{ type: 'text', text: 'C1' }, { type: 'image_url' }, { type: 'text', text: 'C2' }],
        },
      ],
      'C1\nC2',
    ],
    [
      'developer role is system',
      [
        { role: 'developer', content: 'sys' },
        { role: 'user', content: 'D' },
      ],
      'D',
    ],
    [
      'LangChain serialised batch',
      { messages: [[{ lc: 1, type: 'constructor', id: ['x', 'HumanMessage'], kwargs: { content: 'E' } }]] },
      'E',
    ],
    ['LangChain dict form', [{ type: 'human', data: { content: 'F' } }], 'F'],
    ['LangChain plain type form', [{ type: 'human', content: 'G' }], 'G'],
    ['AI SDK ai.prompt with system and prompt', { system: 'sys', prompt: 'H' }, 'H'],
    [
      'AI SDK ai.prompt with messages',
      { system: 'sys', messages: [{ role: 'user', content: [{ type: 'text', text: 'I' }] }] },
      'I',
    ],
    ['OpenAI request body', { model: 'm', messages: [{ role: 'user', content: 'J' }] }, 'J'],
    ['Responses request body', { model: 'm', instructions: 'sys', input: 'K' }, 'K'],
    [
      'Responses input items',
      { input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'L' }] }] },
      'L',
    ],
    ['chain input with a known key', { question: 'M', chat_history: [] }, 'M'],
    ['chain input with one string value', { topic: 'N', n: 3 }, 'N'],
    ['Traceloop entity input', { args: ['O'], kwargs: {} }, 'O'],
    ['Traceloop entity input with an object argument', { args: [{ query: 'P' }], kwargs: {} }, 'P'],
    ['a plain string', 'Q', 'Q'],
    ['a JSON string value', '"R"', 'R'],
  ])('reads the prompt of %s', (_name, value, expected) => {
    expect(prompt(typeof value === 'string' ? value : JSON.stringify(value))).toBe(expected);
  });

  it('takes the last user message, skipping tool results that came as user messages', () => {
    const messages = [
      { role: 'user', parts: [{ type: 'text', content: 'first' }] },
      { role: 'user', parts: [{ type: 'text', content: 'second' }] },
      { role: 'user', parts: [{ type: 'tool_call_response', id: 'x', response: { ok: true } }] },
    ];
    expect(prompt(JSON.stringify(messages))).toBe('second');
  });

  it('keeps a JSON document with no messages whole, and invalid JSON as plain text', () => {
    expect(prompt('{"a":1,"b":2}')).toBe('{"a":1,"b":2}');
    expect(prompt('{not json')).toBe('{not json');
    expect(prompt('   ')).toBeUndefined();
  });

  it.each([
    ['OpenAI chat completion', { choices: [{ message: { role: 'assistant', content: 'S' } }] }, 'S'],
    ['OpenAI legacy completion', { choices: [{ text: 'T' }] }, 'T'],
    ['LangChain generations', { generations: [[{ text: 'U' }]] }, 'U'],
    [
      'LangChain generations with a message',
      { generations: [[{ text: '', message: { lc: 1, id: ['AIMessage'], kwargs: { content: 'V' } } }]] },
      'V',
    ],
    ['chain output', { output: 'W' }, 'W'],
    [
      'Responses output',
      { output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'X' }] }] },
      'X',
    ],
    [
      'a function call item',
      { output: [{ type: 'function_call', name: 'f', arguments: '{"a":1}' }] },
      'f({"a":1})',
    ],
    [
      'LangChain tool calls',
      [{ lc: 1, id: ['AIMessage'], kwargs: { content: '', tool_calls: [{ name: 'g', args: { b: 2 } }] } }],
      'g({"b":2})',
    ],
    [
      'OpenAI tool calls',
      [{ role: 'assistant', content: null, tool_calls: [{ function: { name: 'h', arguments: '{}' } }] }],
      'h({})',
    ],
    [
      'legacy function_call',
      [{ role: 'assistant', function_call: { name: 'i', arguments: '{"c":3}' } }],
      'i({"c":3})',
    ],
    [
      'reasoning is not the answer',
      [
        {
          role: 'assistant',
          parts: [
            { type: 'reasoning', content: 'hmm' },
            { type: 'text', content: 'Y' },
          ],
        },
      ],
      'Y',
    ],
  ])('reads the response of %s', (_name, value, expected) => {
    expect(response(JSON.stringify(value))).toBe(expected);
  });

  it('accepts structured values (log bodies) as well as JSON text', () => {
    expect(messagesFrom([{ role: 'user', parts: [{ type: 'text', content: 'Z' }] }])).toEqual([
      { role: 'user', text: 'Z' },
    ]);
  });
});

describe('JSON helpers', () => {
  it('parses only JSON-looking text and never throws', () => {
    expect(parseJsonLoose('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonLoose('  [1]')).toEqual([1]);
    expect(parseJsonLoose('{broken')).toBeUndefined();
    expect(parseJsonLoose('42')).toBeUndefined();
    expect(parseJsonLoose('hello')).toBeUndefined();
  });

  it('serialises cycles, depth, bigints and bytes without throwing', () => {
    const cyclic: Record<string, unknown> = { name: 'x', big: 10n, bytes: new Uint8Array(3) };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 50; i += 1) deep = { deep };
    const out = boundedStringify({ cyclic, deep });
    expect(out).toContain('"self":"[Circular]"');
    expect(out).toContain('"big":"10"');
    expect(out).toContain('"bytes":"[3 bytes]"');
    expect(out).toContain('"[Object]"');
    expect(boundedStringify({ long: 'x'.repeat(300_000), after: 'y' }).length).toBeLessThan(300_100);
  });
});

describe('isoOf', () => {
  it('formats like Date.prototype.toISOString, across seconds and fractional milliseconds', () => {
    const base = Date.UTC(2026, 0, 31, 23, 59, 58);
    for (let ms = base; ms < base + 3000; ms += 7.3) {
      expect(isoOf(ms, 0)).toBe(new Date(ms).toISOString());
    }
    expect(isoOf(0, 0)).toBe('1970-01-01T00:00:00.000Z');
  });

  it('falls back for a time that cannot be a date', () => {
    expect(isoOf(Number.NaN, 1000)).toBe('1970-01-01T00:00:01.000Z');
    expect(isoOf(1e20, 1000)).toBe('1970-01-01T00:00:01.000Z');
  });
});
