import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, it } from 'vitest';
import { type ConventionCase, expectRecord, mapTrace } from './mapping-helpers/expect-record.js';
import { buildTrace, json } from './mapping-helpers/spans.js';

const cases: ConventionCase[] = [
  {
    name: 'Vercel AI SDK v6: ai.generateText → doGenerate ×2 and ai.toolCall, usage not double-counted',
    build: () =>
      buildTrace({
        name: 'ai.generateText',
        scope: 'ai',
        attributes: {
          'operation.name': 'ai.generateText weather',
          'ai.operationId': 'ai.generateText',
          'resource.name': 'weather',
          'ai.telemetry.functionId': 'weather',
          'ai.telemetry.metadata.sessionId': 'ai-session',
          'ai.telemetry.metadata.userId': 'ai-user',
          'ai.telemetry.metadata.tenant': 'acme',
          'ai.model.id': 'gpt-4o',
          'ai.model.provider': 'openai.chat',
          'ai.prompt': json({ system: 'You are a weather bot.', prompt: 'Weather in Berlin?' }),
          'ai.response.text': 'It is sunny in Berlin.',
          'ai.response.finishReason': 'stop',
          'ai.usage.inputTokens': 60,
          'ai.usage.outputTokens': 25,
          'ai.usage.totalTokens': 85,
        },
        children: [
          {
            name: 'ai.generateText.doGenerate',
            kind: SpanKind.CLIENT,
            scope: 'ai',
            attributes: {
              'operation.name': 'ai.generateText.doGenerate weather',
              'ai.operationId': 'ai.generateText.doGenerate',
              'ai.model.id': 'gpt-4o',
              'ai.model.provider': 'openai.chat',
              'ai.prompt.messages': json([
                { role: 'system', content: 'You are a weather bot.' },
                { role: 'user', content: [{ type: 'text', text: 'Weather in Berlin?' }] },
              ]),
              'gen_ai.system': 'openai.chat',
              'gen_ai.request.model': 'gpt-4o',
              'ai.response.toolCalls': json([
                { toolCallId: 'call_1', toolName: 'weather', input: '{"city":"Berlin"}' },
              ]),
              'ai.response.finishReason': 'tool-calls',
              'ai.response.model': 'gpt-4o-2024-08-06',
              'gen_ai.response.model': 'gpt-4o-2024-08-06',
              'ai.usage.inputTokens': 40,
              'ai.usage.outputTokens': 10,
              'gen_ai.usage.input_tokens': 40,
              'gen_ai.usage.output_tokens': 10,
            },
          },
          {
            name: 'ai.toolCall',
            scope: 'ai',
            attributes: {
              'ai.operationId': 'ai.toolCall',
              'ai.toolCall.name': 'weather',
              'ai.toolCall.id': 'call_1',
              'ai.toolCall.args': json({ city: 'Berlin' }),
              'ai.toolCall.result': json({ forecast: 'sunny' }),
            },
          },
          {
            name: 'ai.generateText.doGenerate',
            kind: SpanKind.CLIENT,
            scope: 'ai',
            attributes: {
              'ai.operationId': 'ai.generateText.doGenerate',
              'ai.model.id': 'gpt-4o',
              'ai.model.provider': 'openai.chat',
              'ai.prompt.messages': json([
                { role: 'system', content: 'You are a weather bot.' },
                { role: 'user', content: [{ type: 'text', text: 'Weather in Berlin?' }] },
                {
                  role: 'assistant',
                  content: [
                    {
                      type: 'tool-call',
                      toolCallId: 'call_1',
                      toolName: 'weather',
                      input: { city: 'Berlin' },
                    },
                  ],
                },
                {
                  role: 'tool',
                  content: [
                    {
                      type: 'tool-result',
                      toolCallId: 'call_1',
                      toolName: 'weather',
                      output: { type: 'json', value: { forecast: 'sunny' } },
                    },
                  ],
                },
              ]),
              'gen_ai.system': 'openai.chat',
              'gen_ai.request.model': 'gpt-4o',
              'ai.response.text': 'It is sunny in Berlin.',
              'ai.response.model': 'gpt-4o-2024-08-06',
              'gen_ai.response.model': 'gpt-4o-2024-08-06',
              'ai.usage.inputTokens': 20,
              'ai.usage.outputTokens': 15,
              'gen_ai.usage.input_tokens': 20,
              'gen_ai.usage.output_tokens': 15,
            },
          },
        ],
      }),
    expected: {
      prompt: 'Weather in Berlin?',
      response: 'It is sunny in Berlin.',
      model: 'gpt-4o-2024-08-06',
      provider: 'openai.chat',
      usage: { inputTokens: 60, outputTokens: 25, totalTokens: 85 },
      sessionId: 'ai-session',
      userId: 'ai-user',
      convention: 'vercel-ai',
    },
  },
  {
    name: 'Vercel AI SDK v6: a final answer that is only a tool call',
    build: () =>
      buildTrace({
        name: 'ai.generateText',
        scope: 'ai',
        attributes: {
          'ai.operationId': 'ai.generateText',
          'ai.model.id': 'gpt-4o',
          'ai.model.provider': 'openai.chat',
          'ai.prompt': json({ prompt: 'Book a table for two' }),
          'ai.response.toolCalls': json([{ toolCallId: 'c', toolName: 'book_table', input: '{"people":2}' }]),
        },
        children: [
          {
            name: 'ai.generateText.doGenerate',
            scope: 'ai',
            attributes: {
              'ai.operationId': 'ai.generateText.doGenerate',
              'ai.model.id': 'gpt-4o',
              'ai.model.provider': 'openai.chat',
              'ai.prompt.messages': json([
                { role: 'user', content: [{ type: 'text', text: 'Book a table for two' }] },
              ]),
              'ai.response.toolCalls': json([
                { toolCallId: 'c', toolName: 'book_table', input: '{"people":2}' },
              ]),
              'ai.usage.inputTokens': 9,
              'ai.usage.outputTokens': 4,
            },
          },
        ],
      }),
    expected: {
      prompt: 'Book a table for two',
      response: 'book_table({"people":2})',
      model: 'gpt-4o',
      provider: 'openai.chat',
      usage: { inputTokens: 9, outputTokens: 4, totalTokens: 13 },
    },
  },
  {
    name: 'Vercel AI SDK v7 (@ai-sdk/otel): invoke_agent → step → chat, execute_tool',
    build: () => {
      const chat = (output: unknown[], input: number, outputTokens: number) => ({
        name: 'chat gpt-4o',
        kind: SpanKind.CLIENT,
        scope: 'ai',
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.system_instructions': json([{ type: 'text', content: 'You are a weather bot.' }]),
          'gen_ai.input.messages': json([
            { role: 'user', parts: [{ type: 'text', content: 'Weather in Rome?' }] },
          ]),
          'gen_ai.output.messages': json(output),
          'gen_ai.response.model': 'gpt-4o-2024-08-06',
          'gen_ai.usage.input_tokens': input,
          'gen_ai.usage.output_tokens': outputTokens,
        },
      });
      return buildTrace({
        name: 'invoke_agent weather-agent',
        kind: SpanKind.INTERNAL,
        scope: 'ai',
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.agent.name': 'weather-agent',
          'gen_ai.system_instructions': json([{ type: 'text', content: 'You are a weather bot.' }]),
          'gen_ai.input.messages': json([
            { role: 'user', parts: [{ type: 'text', content: 'Weather in Rome?' }] },
          ]),
          'gen_ai.output.messages': json([
            {
              role: 'assistant',
              parts: [{ type: 'text', content: 'Rome is warm and sunny.' }],
              finish_reason: 'stop',
            },
          ]),
          'gen_ai.usage.input_tokens': 70,
          'gen_ai.usage.output_tokens': 30,
        },
        children: [
          {
            name: 'step 1',
            scope: 'ai',
            attributes: { 'gen_ai.operation.name': 'agent_step' },
            children: [
              chat(
                [
                  {
                    role: 'assistant',
                    parts: [{ type: 'tool_call', id: 't1', name: 'weather', arguments: { city: 'Rome' } }],
                    finish_reason: 'tool_call',
                  },
                ],
                45,
                12,
              ),
              {
                name: 'execute_tool weather',
                scope: 'ai',
                attributes: {
                  'gen_ai.operation.name': 'execute_tool',
                  'gen_ai.tool.name': 'weather',
                  'gen_ai.tool.call.id': 't1',
                  'gen_ai.tool.call.arguments': json({ city: 'Rome' }),
                  'gen_ai.tool.call.result': json({ forecast: 'warm, sunny' }),
                },
              },
            ],
          },
          {
            name: 'step 2',
            scope: 'ai',
            attributes: { 'gen_ai.operation.name': 'agent_step' },
            children: [
              chat(
                [
                  {
                    role: 'assistant',
                    parts: [{ type: 'text', content: 'Rome is warm and sunny.' }],
                    finish_reason: 'stop',
                  },
                ],
                25,
                18,
              ),
            ],
          },
        ],
      });
    },
    expected: {
      prompt: 'Weather in Rome?',
      response: 'Rome is warm and sunny.',
      model: 'gpt-4o-2024-08-06',
      provider: 'openai',
      usage: { inputTokens: 70, outputTokens: 30, totalTokens: 100 },
      convention: 'semconv,vercel-ai',
    },
  },
  {
    // Reference §5a: errors are recordException({name, message, stack}) plus status ERROR with the
    // message, on the outer span and on the model call; no ai.response.* or usage is set.
    name: 'Vercel AI SDK v6 error: ai.generateText → doGenerate, recordException and status ERROR with the message',
    build: () => {
      const message = 'Incorrect API key provided: sk-proj-****';
      const failed = () => ({
        exception: { name: 'AI_APICallError', message, stack: `AI_APICallError: ${message}\n    at …` },
        status: { code: SpanStatusCode.ERROR, message },
      });
      return buildTrace({
        name: 'ai.generateText',
        scope: 'ai',
        attributes: {
          'operation.name': 'ai.generateText support',
          'ai.operationId': 'ai.generateText',
          'ai.telemetry.functionId': 'support',
          'ai.model.id': 'gpt-4o-mini',
          'ai.model.provider': 'openai.chat',
          'ai.prompt': json({ system: 'You are support.', prompt: 'Where is my order?' }),
        },
        ...failed(),
        children: [
          {
            name: 'ai.generateText.doGenerate',
            kind: SpanKind.CLIENT,
            scope: 'ai',
            attributes: {
              'operation.name': 'ai.generateText.doGenerate support',
              'ai.operationId': 'ai.generateText.doGenerate',
              'ai.model.id': 'gpt-4o-mini',
              'ai.model.provider': 'openai.chat',
              'ai.prompt.messages': json([
                { role: 'system', content: 'You are support.' },
                { role: 'user', content: [{ type: 'text', text: 'Where is my order?' }] },
              ]),
              'gen_ai.system': 'openai.chat',
              'gen_ai.request.model': 'gpt-4o-mini',
            },
            ...failed(),
          },
        ],
      });
    },
    expected: {
      prompt: 'Where is my order?',
      response: '',
      model: 'gpt-4o-mini',
      provider: 'openai.chat',
      status: 'error',
      errorMessage: 'Incorrect API key provided: sk-proj-****',
      convention: 'vercel-ai',
    },
  },
  {
    // Reference §5b (record-span.ts): recordException plus status ERROR (no status message is
    // mentioned), plus http.response.status_code for an APICallError, on the agent span and the
    // model call; the end attributes (output messages, usage, response model) are never set.
    name: 'Vercel AI SDK v7 (@ai-sdk/otel) error: invoke_agent → chat, recordException, status ERROR, http.response.status_code',
    build: () => {
      const message = 'Rate limit reached for gpt-4o in organization org-1';
      const failed = () => ({
        exception: { name: 'AI_APICallError', message, stack: `AI_APICallError: ${message}\n    at …` },
        status: { code: SpanStatusCode.ERROR },
      });
      const instructions = json([{ type: 'text', content: 'You are a travel agent.' }]);
      const input = json([
        { role: 'user', parts: [{ type: 'text', content: 'Find me a flight to Lisbon' }] },
      ]);
      return buildTrace({
        name: 'invoke_agent travel-agent',
        kind: SpanKind.INTERNAL,
        scope: 'ai',
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.agent.name': 'travel-agent',
          'gen_ai.system_instructions': instructions,
          'gen_ai.input.messages': input,
          'http.response.status_code': 429,
        },
        ...failed(),
        children: [
          {
            name: 'chat gpt-4o',
            kind: SpanKind.CLIENT,
            scope: 'ai',
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.provider.name': 'openai',
              'gen_ai.request.model': 'gpt-4o',
              'gen_ai.system_instructions': instructions,
              'gen_ai.input.messages': input,
              'server.address': 'api.openai.com',
              'server.port': 443,
              'http.response.status_code': 429,
            },
            ...failed(),
          },
        ],
      });
    },
    expected: {
      prompt: 'Find me a flight to Lisbon',
      response: '',
      model: 'gpt-4o',
      provider: 'openai',
      status: 'error',
      errorMessage: 'Rate limit reached for gpt-4o in organization org-1',
      convention: 'semconv,vercel-ai',
    },
  },
];

describe('buildTraceRecord: Vercel AI SDK', () => {
  it.each(cases)('$name', ({ build, expected }) => {
    const built = build();
    expectRecord(mapTrace(built), expected, built);
  });
});
