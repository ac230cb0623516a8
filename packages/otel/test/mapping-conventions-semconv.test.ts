import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, it } from 'vitest';
import { type ConventionCase, expectRecord, mapTrace } from './mapping-helpers/expect-record.js';
import { buildTrace, json, openAiLog } from './mapping-helpers/spans.js';

const OTEL_OPENAI = '@opentelemetry/instrumentation-openai';

const cases: ConventionCase[] = [
  {
    name: 'semconv ≥1.37: JSON gen_ai.input/output.messages and system instructions on the span',
    build: () =>
      buildTrace({
        name: 'chat gpt-4o',
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.response.model': 'gpt-4o-2024-08-06',
          'gen_ai.system_instructions': json([{ type: 'text', content: 'You are terse.' }]),
          'gen_ai.input.messages': json([
            { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
            {
              role: 'assistant',
              parts: [{ type: 'tool_call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }],
            },
            { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'rainy, 57°F' }] },
          ]),
          'gen_ai.output.messages': json([
            { role: 'assistant', parts: [{ type: 'text', content: 'Rainy, 57°F.' }], finish_reason: 'stop' },
          ]),
          'gen_ai.usage.input_tokens': 100,
          'gen_ai.usage.output_tokens': 20,
        },
      }),
    expected: {
      prompt: 'Weather in Paris?',
      response: 'Rainy, 57°F.',
      model: 'gpt-4o-2024-08-06',
      provider: 'openai',
      usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120 },
      convention: 'semconv',
    },
  },
  {
    name: 'semconv ≥1.37: an output that is only a tool call is rendered readably',
    build: () =>
      buildTrace({
        name: 'chat gpt-4o',
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.input.messages': json([
            { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris and Rome?' }] },
          ]),
          'gen_ai.output.messages': json([
            {
              role: 'assistant',
              parts: [
                { type: 'tool_call', id: 'a', name: 'get_weather', arguments: { city: 'Paris' } },
                { type: 'tool_call', id: 'b', name: 'get_weather', arguments: { city: 'Rome' } },
              ],
              finish_reason: 'tool_call',
            },
          ]),
        },
      }),
    expected: {
      prompt: 'Weather in Paris and Rome?',
      response: 'get_weather({"city":"Paris"})\nget_weather({"city":"Rome"})',
      model: 'gpt-4o',
      provider: 'openai',
    },
  },
  {
    name: 'semconv ≤1.27: gen_ai.content.prompt / gen_ai.content.completion span events',
    build: () =>
      buildTrace({
        name: 'chat gpt-4',
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.system': 'openai',
          'gen_ai.request.model': 'gpt-4',
          'gen_ai.response.model': 'gpt-4-0613',
          'gen_ai.usage.prompt_tokens': 12,
          'gen_ai.usage.completion_tokens': 5,
        },
        events: [
          {
            name: 'gen_ai.content.prompt',
            attributes: {
              'gen_ai.prompt': json([
                { role: 'system', content: 'Be brief.' },
                { role: 'user', content: 'Capital of France?' },
              ]),
            },
          },
          {
            name: 'gen_ai.content.completion',
            attributes: { 'gen_ai.completion': json([{ role: 'assistant', content: 'Paris.' }]) },
          },
        ],
      }),
    expected: {
      prompt: 'Capital of France?',
      response: 'Paris.',
      model: 'gpt-4-0613',
      provider: 'openai',
      usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 },
      convention: 'semconv-events',
    },
  },
  {
    name: 'semconv 1.28–1.36 log records: @opentelemetry/instrumentation-openai chat completions',
    build: () =>
      buildTrace({
        name: 'chat gpt-4o-mini',
        kind: SpanKind.CLIENT,
        scope: OTEL_OPENAI,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.system': 'openai',
          'server.address': 'api.openai.com',
          'server.port': 443,
          'gen_ai.response.id': 'chatcmpl-1',
          'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
          'gen_ai.response.finish_reasons': ['stop'],
          'gen_ai.usage.input_tokens': 24,
          'gen_ai.usage.output_tokens': 9,
        },
        logs: [
          openAiLog('gen_ai.system.message', { content: 'You are a helpful assistant.' }),
          openAiLog('gen_ai.user.message', { content: 'Say hello' }),
          openAiLog('gen_ai.choice', { finish_reason: 'stop', index: 0, message: { content: 'Hello!' } }),
        ],
      }),
    expected: {
      prompt: 'Say hello',
      response: 'Hello!',
      model: 'gpt-4o-mini-2024-07-18',
      provider: 'openai',
      usage: { inputTokens: 24, outputTokens: 9, totalTokens: 33 },
      convention: 'semconv,semconv-events',
    },
  },
  {
    name: 'semconv 1.28–1.36 log records: a gen_ai.choice with tool calls and no content',
    build: () =>
      buildTrace({
        name: 'chat gpt-4o-mini',
        kind: SpanKind.CLIENT,
        scope: OTEL_OPENAI,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.system': 'openai',
          'gen_ai.usage.input_tokens': 40,
          'gen_ai.usage.output_tokens': 15,
        },
        logs: [
          openAiLog('gen_ai.user.message', { content: 'What is the weather in Paris?' }),
          openAiLog('gen_ai.choice', {
            finish_reason: 'tool_calls',
            index: 0,
            message: {
              tool_calls: [
                {
                  id: 'call_1',
                  type: 'function',
                  function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
                },
              ],
            },
          }),
        ],
      }),
    expected: {
      prompt: 'What is the weather in Paris?',
      response: 'get_weather({"location":"Paris"})',
      model: 'gpt-4o-mini',
      provider: 'openai',
      usage: { inputTokens: 40, outputTokens: 15, totalTokens: 55 },
    },
  },
  {
    name: 'semconv ≥1.37 operation-details records: @opentelemetry/instrumentation-openai Responses API',
    build: () =>
      buildTrace({
        name: 'chat gpt-4.1',
        kind: SpanKind.CLIENT,
        scope: OTEL_OPENAI,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4.1',
          // Set as a raw string, regardless of content capture.
          'gen_ai.system_instructions': 'You answer in French.',
          'gen_ai.conversation.id': 'conv_42',
          'gen_ai.response.model': 'gpt-4.1-2025-04-14',
          'gen_ai.response.finish_reasons': ['stop'],
          'gen_ai.usage.input_tokens': 31,
          'gen_ai.usage.output_tokens': 6,
        },
        logs: [
          {
            eventName: 'gen_ai.client.inference.operation.details',
            body: undefined,
            attributes: {
              'gen_ai.input.messages': [
                { role: 'system', parts: [{ type: 'text', content: 'You answer in French.' }] },
                { role: 'user', parts: [{ type: 'text', content: 'Hello there' }] },
              ],
            },
          },
          {
            eventName: 'gen_ai.client.inference.operation.details',
            body: undefined,
            attributes: {
              'gen_ai.output.messages': [
                { role: 'assistant', parts: [{ type: 'text', content: 'Bonjour !' }], finish_reason: 'stop' },
              ],
            },
          },
        ],
      }),
    expected: {
      prompt: 'Hello there',
      response: 'Bonjour !',
      model: 'gpt-4.1-2025-04-14',
      provider: 'openai',
      usage: { inputTokens: 31, outputTokens: 6, totalTokens: 37 },
      sessionId: 'conv_42',
    },
  },
  {
    name: 'semconv: an errored chat span (status message, error.type, no exception event)',
    build: () =>
      buildTrace({
        name: 'chat gpt-4o-mini',
        kind: SpanKind.CLIENT,
        scope: OTEL_OPENAI,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.system': 'openai',
          'error.type': 'RateLimitError',
        },
        status: { code: SpanStatusCode.ERROR, message: '429 Rate limit reached' },
        logs: [openAiLog('gen_ai.user.message', { content: 'Hi' })],
      }),
    expected: {
      prompt: 'Hi',
      response: '',
      model: 'gpt-4o-mini',
      provider: 'openai',
      status: 'error',
      errorMessage: '429 Rate limit reached',
    },
  },
];

describe('buildTraceRecord: OTel GenAI semantic conventions', () => {
  it.each(cases)('$name', ({ build, expected }) => {
    const built = build();
    expectRecord(mapTrace(built), expected, built);
  });
});
