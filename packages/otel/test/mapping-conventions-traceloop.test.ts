import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, it } from 'vitest';
import { type ConventionCase, expectRecord, mapTrace } from './mapping-helpers/expect-record.js';
import { buildTrace, json } from './mapping-helpers/spans.js';

const cases: ConventionCase[] = [
  {
    name: 'Traceloop ≥0.25: SDK workflow span around a semconv chat span, association properties',
    build: () =>
      buildTrace({
        name: 'qa.workflow',
        scope: '@traceloop/node-server-sdk',
        attributes: {
          'traceloop.span.kind': 'workflow',
          'traceloop.entity.name': 'qa',
          'traceloop.workflow.name': 'qa',
          'traceloop.entity.input': json({ args: ['Who wrote Hamlet?'], kwargs: {} }),
          'traceloop.entity.output': json('William Shakespeare wrote Hamlet.'),
          'traceloop.association.properties.session_id': 'tl-session',
          'traceloop.association.properties.user_id': 'tl-user',
          'traceloop.association.properties.tenant': 'acme',
        },
        children: [
          {
            name: 'chat gpt-4o',
            kind: SpanKind.CLIENT,
            scope: '@traceloop/instrumentation-openai',
            attributes: {
              'traceloop.workflow.name': 'qa',
              'traceloop.association.properties.session_id': 'tl-session',
              'gen_ai.provider.name': 'openai',
              'gen_ai.operation.name': 'chat',
              'gen_ai.request.model': 'gpt-4o',
              'gen_ai.input.messages': json([
                { role: 'system', parts: [{ type: 'text', content: 'You are a literature expert.' }] },
                { role: 'user', parts: [{ type: 'text', content: 'Who wrote Hamlet?' }] },
              ]),
              'gen_ai.output.messages': json([
                {
                  role: 'assistant',
                  parts: [{ type: 'text', content: 'William Shakespeare wrote Hamlet.' }],
                  finish_reason: 'stop',
                },
              ]),
              'gen_ai.response.model': 'gpt-4o-2024-08-06',
              'gen_ai.usage.input_tokens': 22,
              'gen_ai.usage.output_tokens': 7,
              'gen_ai.usage.total_tokens': 29,
            },
          },
        ],
      }),
    expected: {
      prompt: 'Who wrote Hamlet?',
      response: 'William Shakespeare wrote Hamlet.',
      model: 'gpt-4o-2024-08-06',
      provider: 'openai',
      usage: { inputTokens: 22, outputTokens: 7, totalTokens: 29 },
      sessionId: 'tl-session',
      userId: 'tl-user',
      convention: 'semconv,traceloop',
    },
  },
  {
    name: 'Traceloop ≤0.22 legacy: gen_ai.prompt.{i}.* / gen_ai.completion.{i}.*',
    build: () =>
      buildTrace({
        name: 'openai.chat',
        kind: SpanKind.CLIENT,
        scope: '@traceloop/instrumentation-openai',
        attributes: {
          'gen_ai.system': 'OpenAI',
          'llm.request.type': 'chat',
          'gen_ai.request.model': 'gpt-3.5-turbo',
          'gen_ai.response.model': 'gpt-3.5-turbo-0125',
          'gen_ai.prompt.0.role': 'system',
          'gen_ai.prompt.0.content': 'You are funny.',
          'gen_ai.prompt.1.role': 'user',
          'gen_ai.prompt.1.content': 'Tell me a joke about OpenTelemetry',
          'gen_ai.completion.0.role': 'assistant',
          'gen_ai.completion.0.content': 'Why did the span cross the process? To propagate context.',
          'gen_ai.completion.0.finish_reason': 'stop',
          'gen_ai.usage.prompt_tokens': 15,
          'gen_ai.usage.completion_tokens': 20,
          'llm.usage.total_tokens': 35,
        },
      }),
    expected: {
      prompt: 'Tell me a joke about OpenTelemetry',
      response: 'Why did the span cross the process? To propagate context.',
      model: 'gpt-3.5-turbo-0125',
      provider: 'OpenAI',
      usage: { inputTokens: 15, outputTokens: 20, totalTokens: 35 },
      convention: 'traceloop',
    },
  },
  {
    name: 'Traceloop ≤0.22 legacy: tool calls and JSON array content',
    build: () =>
      buildTrace({
        name: 'openai.chat',
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.system': 'OpenAI',
          'llm.request.type': 'chat',
          'gen_ai.request.model': 'gpt-4',
          'gen_ai.prompt.0.role': 'user',
          'gen_ai.prompt.0.content': json([{ type: 'text', text: 'Weather in Oslo?' }]),
          'gen_ai.completion.0.role': 'assistant',
          'gen_ai.completion.0.finish_reason': 'tool_calls',
          'gen_ai.completion.0.tool_calls.0.name': 'get_weather',
          'gen_ai.completion.0.tool_calls.0.arguments': '{"city":"Oslo"}',
        },
      }),
    expected: {
      prompt: 'Weather in Oslo?',
      response: 'get_weather({"city":"Oslo"})',
      model: 'gpt-4',
      provider: 'OpenAI',
    },
  },
  {
    // Reference §4a, @traceloop/instrumentation-langchain 0.27.0: a failed run gets recordException
    // plus status ERROR (no status message is mentioned); the chain around the failed chat model
    // fails with the same error. Nothing of the end (output, usage, response model) is set.
    name: 'Traceloop ≥0.25 error: LangChain workflow → chat, recordException plus status ERROR on both',
    build: () => {
      const error = () => new Error('429 You exceeded your current quota');
      return buildTrace({
        name: 'workflow RunnableSequence',
        kind: SpanKind.INTERNAL,
        scope: '@traceloop/instrumentation-langchain',
        attributes: {
          'gen_ai.operation.name': 'workflow',
          'gen_ai.provider.name': 'langchain',
          'traceloop.span.kind': 'workflow',
          'traceloop.workflow.name': 'RunnableSequence',
          'traceloop.entity.input': json({ question: 'Summarise the release notes' }),
        },
        exception: error(),
        status: { code: SpanStatusCode.ERROR },
        children: [
          {
            name: 'chat gpt-4o',
            kind: SpanKind.CLIENT,
            scope: '@traceloop/instrumentation-langchain',
            attributes: {
              'gen_ai.provider.name': 'openai',
              'gen_ai.operation.name': 'chat',
              'gen_ai.request.model': 'gpt-4o',
              'gen_ai.input.messages': json([
                { role: 'system', parts: [{ type: 'text', content: 'You write summaries.' }] },
                { role: 'user', parts: [{ type: 'text', content: 'Summarise the release notes' }] },
              ]),
            },
            exception: error(),
            status: { code: SpanStatusCode.ERROR },
          },
        ],
      });
    },
    expected: {
      prompt: 'Summarise the release notes',
      response: '',
      model: 'gpt-4o',
      provider: 'openai',
      status: 'error',
      errorMessage: '429 You exceeded your current quota',
      convention: 'semconv,traceloop',
    },
  },
  {
    // Reference §4b shape with no completion or usage keys, as a failed call leaves it; the error is
    // recorded as in §8 (exception event plus status ERROR).
    name: 'Traceloop ≤0.22 legacy error: openai.chat with prompts only, recordException plus status ERROR',
    build: () =>
      buildTrace({
        name: 'openai.chat',
        kind: SpanKind.CLIENT,
        scope: '@traceloop/instrumentation-openai',
        attributes: {
          'gen_ai.system': 'OpenAI',
          'llm.request.type': 'chat',
          'gen_ai.request.model': 'gpt-3.5-turbo',
          'gen_ai.prompt.0.role': 'user',
          'gen_ai.prompt.0.content': 'Translate "hello" to German',
        },
        exception: new Error('Request timed out.'),
        status: { code: SpanStatusCode.ERROR },
      }),
    expected: {
      prompt: 'Translate "hello" to German',
      response: '',
      model: 'gpt-3.5-turbo',
      provider: 'OpenAI',
      status: 'error',
      errorMessage: 'Request timed out.',
      convention: 'traceloop',
    },
  },
];

describe('buildTraceRecord: OpenLLMetry / Traceloop', () => {
  it.each(cases)('$name', ({ build, expected }) => {
    const built = build();
    expectRecord(mapTrace(built), expected, built);
  });
});
