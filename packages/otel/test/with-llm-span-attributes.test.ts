import { context, DiagLogLevel, diag, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withLlmSpan } from '../src/with-llm-span.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';

const memory = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });

beforeAll(() => provider.register());
beforeEach(() => memory.reset());
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

describe('withLlmSpan', () => {
  it('records an active CLIENT span with the GenAI attributes, response and usage, and returns the result', async () => {
    const result = await withLlmSpan(
      { model: 'gpt-4o', provider: 'openai', prompt: 'Hi there' },
      async (span) => {
        expect(trace.getActiveSpan()).toBe(span.span);
        span
          .setResponse('Hello!')
          .setUsage({ inputTokens: 12, outputTokens: 3 })
          .setModel('gpt-4o-2024-08-06');
        return 42;
      },
    );
    expect(result).toBe(42);
    const [span] = memory.getFinishedSpans();
    expect(span?.name).toBe('chat gpt-4o');
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    expect(span?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.provider.name': 'openai',
      'gen_ai.input.messages': JSON.stringify([
        { role: 'user', parts: [{ type: 'text', content: 'Hi there' }] },
      ]),
      'gen_ai.output.messages': JSON.stringify([
        { role: 'assistant', parts: [{ type: 'text', content: 'Hello!' }], finish_reason: 'stop' },
      ]),
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
      'gen_ai.response.model': 'gpt-4o-2024-08-06',
    });
  });

  it('takes chat messages as the prompt and a custom span name', async () => {
    await withLlmSpan(
      {
        name: 'answer question',
        model: 'claude-sonnet',
        provider: 'anthropic',
        prompt: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Why?' },
        ],
      },
      () => undefined,
    );
    const [span] = memory.getFinishedSpans();
    expect(span?.name).toBe('answer question');
    expect(JSON.parse(span?.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'Why?' }] },
    ]);
  });

  it('records an error of the callback, rethrows it and still ends the span', async () => {
    class RateLimitError extends Error {}
    const failure = new RateLimitError('quota exceeded');
    await expect(
      withLlmSpan({ model: 'gpt-4o', provider: 'openai', prompt: 'x' }, async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    const [span] = memory.getFinishedSpans();
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'quota exceeded' });
    expect(span?.attributes['error.type']).toBe('RateLimitError');
    expect(span?.events.map((e) => [e.name, e.attributes?.['exception.message']])).toEqual([
      ['exception', 'quota exceeded'],
    ]);
  });

  it.each([
    [
      { model: undefined, provider: 'openai', prompt: 'x' },
      'chat',
      ['gen_ai.request.model'],
      'withLlmSpan: `model` left off the span: expected a non-empty string, got `undefined` (undefined)',
    ],
    [
      { model: 'm', provider: 3, prompt: 'x' },
      'chat m',
      ['gen_ai.provider.name'],
      'withLlmSpan: `provider` left off the span: expected a non-empty string, got `3` (number)',
    ],
    [
      { model: 'm', provider: 'p', prompt: 5 },
      'chat m',
      ['gen_ai.input.messages'],
      'withLlmSpan: `prompt` left off the span: expected a string or an array of { role, content } messages, got `5` (number)',
    ],
    [
      { model: 'm', provider: 'p', prompt: [{ role: 'user' }] },
      'chat m',
      ['gen_ai.input.messages'],
      'withLlmSpan: `prompt[0]` left off the span: expected a { role: string, content: string } message, got an object',
    ],
    [
      null,
      'chat',
      ['gen_ai.request.model', 'gen_ai.provider.name', 'gen_ai.input.messages'],
      'withLlmSpan: `options` left off the span: expected an object, got `null`',
    ],
  ])(
    'runs the callback whatever the span fields hold, leaving a bad one off with a diag note (%#)',
    async (options, name, missing, note) => {
      const logs = new CaptureLogger();
      diag.setLogger(logs, { logLevel: DiagLogLevel.ALL, suppressOverrideMessage: true });
      try {
        let ran = false;
        const result = await withLlmSpan(options as never, () => {
          ran = true;
          return 1;
        });
        expect(ran).toBe(true);
        expect(result).toBe(1);
        const [span] = memory.getFinishedSpans();
        expect(span?.name).toBe(name);
        expect(span?.attributes['gen_ai.operation.name']).toBe('chat');
        for (const key of missing) expect(span?.attributes).not.toHaveProperty(key);
        expect(logs.at('warn').some((line) => line.includes(note))).toBe(true);
      } finally {
        diag.disable();
      }
    },
  );

  it('keeps the good messages of a prompt and leaves off only the bad ones', async () => {
    await withLlmSpan(
      { model: 'm', provider: 'p', prompt: [{ role: 'user', content: 'hi' }, { role: 2 } as never] },
      () => 1,
    );
    const [span] = memory.getFinishedSpans();
    expect(span?.attributes['gen_ai.input.messages']).toBe(
      JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]),
    );
  });

  it('rethrows the error of the callback as it is even when it cannot be described', async () => {
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    await expect(
      withLlmSpan({ model: 'm', provider: 'p', prompt: 'x' }, () => {
        throw hostile;
      }),
    ).rejects.toBe(hostile);
    expect(memory.getFinishedSpans()).toHaveLength(1);
  });

  it('still rejects an fn that is not a function (nothing to run)', async () => {
    await expect(withLlmSpan({ model: 'm', provider: 'p', prompt: 'x' }, 5 as never)).rejects.toThrow(
      'Expected `fn` to be a function, got `5` (number)',
    );
  });
});
