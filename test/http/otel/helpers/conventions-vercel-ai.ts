import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { type ConventionCase, json, semconvMessages, usage } from './convention-case.js';

/** The Vercel AI SDK, reference §5: v6 `ai.*` spans and v7 `@ai-sdk/otel` GenAI spans. */
export function vercelAiCases(): ConventionCase[] {
  const v6 = { prompt: 'Weather in Berlin?', response: 'It is sunny in Berlin.' };
  const v7 = { prompt: 'Weather in Rome?', response: 'Rome is warm and sunny.' };
  const failedV6 = { prompt: 'Where is my order?', error: 'Incorrect API key provided: sk-proj-****' };
  const failedV7 = {
    prompt: 'Find me a flight to Lisbon',
    error: 'Rate limit reached for gpt-4o in organization org-1',
  };
  /** `recordException({name, message, stack})` of an AI SDK `APICallError`. */
  const apiCallError = (message: string): Error => ({
    name: 'AI_APICallError',
    message,
    stack: `AI_APICallError: ${message}\n    at …`,
  });
  const v7Instructions = json([{ type: 'text', content: 'You are a travel agent.' }]);
  return [
    {
      name: 'Vercel AI SDK v6: ai.generateText → ai.generateText.doGenerate',
      spans: {
        name: 'ai.generateText',
        scope: 'ai',
        attributes: {
          'operation.name': 'ai.generateText weather',
          'ai.operationId': 'ai.generateText',
          'ai.telemetry.functionId': 'weather',
          'ai.model.id': 'gpt-4o',
          'ai.model.provider': 'openai.chat',
          'ai.prompt': json({ system: 'You are a weather bot.', prompt: v6.prompt }),
          'ai.response.text': v6.response,
          'ai.response.finishReason': 'stop',
          'ai.usage.inputTokens': 40,
          'ai.usage.outputTokens': 9,
          'ai.usage.totalTokens': 49,
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
                { role: 'user', content: [{ type: 'text', text: v6.prompt }] },
              ]),
              'gen_ai.system': 'openai.chat',
              'gen_ai.request.model': 'gpt-4o',
              'ai.response.text': v6.response,
              'ai.response.finishReason': 'stop',
              'ai.response.model': 'gpt-4o-2024-08-06',
              'gen_ai.response.model': 'gpt-4o-2024-08-06',
              'gen_ai.response.finish_reasons': ['stop'],
              'ai.usage.inputTokens': 40,
              'ai.usage.outputTokens': 9,
              'gen_ai.usage.input_tokens': 40,
              'gen_ai.usage.output_tokens': 9,
            },
          },
        ],
      },
      expected: {
        ...v6,
        model: 'gpt-4o-2024-08-06',
        provider: 'openai.chat',
        usage: usage(40, 9),
        status: 'success',
      },
    },
    {
      name: 'Vercel AI SDK v7 (@ai-sdk/otel): invoke_agent → chat',
      spans: {
        name: 'invoke_agent weather-agent',
        kind: SpanKind.INTERNAL,
        scope: 'ai',
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.agent.name': 'weather-agent',
          'gen_ai.system_instructions': json([{ type: 'text', content: 'You are a weather bot.' }]),
          'gen_ai.input.messages': json(semconvMessages({ role: 'user', text: v7.prompt })),
          'gen_ai.output.messages': json(
            semconvMessages({ role: 'assistant', text: v7.response, finish_reason: 'stop' }),
          ),
          'gen_ai.response.finish_reasons': ['stop'],
          // The agent span sums its model calls; here there is one.
          'gen_ai.usage.input_tokens': 45,
          'gen_ai.usage.output_tokens': 12,
        },
        children: [
          {
            name: 'chat gpt-4o',
            kind: SpanKind.CLIENT,
            scope: 'ai',
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.provider.name': 'openai',
              'gen_ai.request.model': 'gpt-4o',
              'gen_ai.system_instructions': json([{ type: 'text', content: 'You are a weather bot.' }]),
              'gen_ai.input.messages': json(semconvMessages({ role: 'user', text: v7.prompt })),
              'gen_ai.output.messages': json(
                semconvMessages({ role: 'assistant', text: v7.response, finish_reason: 'stop' }),
              ),
              'gen_ai.response.id': 'resp-e2e',
              'gen_ai.response.model': 'gpt-4o-2024-08-06',
              'gen_ai.response.finish_reasons': ['stop'],
              'gen_ai.usage.input_tokens': 45,
              'gen_ai.usage.output_tokens': 12,
              'server.address': 'api.openai.com',
            },
          },
        ],
      },
      expected: {
        ...v7,
        model: 'gpt-4o-2024-08-06',
        provider: 'openai',
        usage: usage(45, 12),
        status: 'success',
      },
    },
    {
      // §5a: recordException({name, message, stack}) plus status ERROR with the message, on both
      // spans; no ai.response.* or usage.
      name: 'Vercel AI SDK v6 error: ai.generateText → doGenerate, recordException and status ERROR with the message',
      spans: {
        name: 'ai.generateText',
        scope: 'ai',
        attributes: {
          'operation.name': 'ai.generateText support',
          'ai.operationId': 'ai.generateText',
          'ai.telemetry.functionId': 'support',
          'ai.model.id': 'gpt-4o-mini',
          'ai.model.provider': 'openai.chat',
          'ai.prompt': json({ system: 'You are support.', prompt: failedV6.prompt }),
        },
        exception: apiCallError(failedV6.error),
        status: { code: SpanStatusCode.ERROR, message: failedV6.error },
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
                { role: 'user', content: [{ type: 'text', text: failedV6.prompt }] },
              ]),
              'gen_ai.system': 'openai.chat',
              'gen_ai.request.model': 'gpt-4o-mini',
            },
            exception: apiCallError(failedV6.error),
            status: { code: SpanStatusCode.ERROR, message: failedV6.error },
          },
        ],
      },
      expected: {
        prompt: failedV6.prompt,
        response: '',
        model: 'gpt-4o-mini',
        provider: 'openai.chat',
        usage: undefined,
        status: 'error',
        errorMessage: failedV6.error,
      },
    },
    {
      // §5b (record-span.ts): recordException plus status ERROR (no status message), plus
      // http.response.status_code for an APICallError; no output messages, usage or response model.
      name: 'Vercel AI SDK v7 (@ai-sdk/otel) error: invoke_agent → chat, recordException, status ERROR, http.response.status_code',
      spans: {
        name: 'invoke_agent travel-agent',
        kind: SpanKind.INTERNAL,
        scope: 'ai',
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.agent.name': 'travel-agent',
          'gen_ai.system_instructions': v7Instructions,
          'gen_ai.input.messages': json(semconvMessages({ role: 'user', text: failedV7.prompt })),
          'http.response.status_code': 429,
        },
        exception: apiCallError(failedV7.error),
        status: { code: SpanStatusCode.ERROR },
        children: [
          {
            name: 'chat gpt-4o',
            kind: SpanKind.CLIENT,
            scope: 'ai',
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.provider.name': 'openai',
              'gen_ai.request.model': 'gpt-4o',
              'gen_ai.system_instructions': v7Instructions,
              'gen_ai.input.messages': json(semconvMessages({ role: 'user', text: failedV7.prompt })),
              'server.address': 'api.openai.com',
              'http.response.status_code': 429,
            },
            exception: apiCallError(failedV7.error),
            status: { code: SpanStatusCode.ERROR },
          },
        ],
      },
      expected: {
        prompt: failedV7.prompt,
        response: '',
        model: 'gpt-4o',
        provider: 'openai',
        usage: undefined,
        status: 'error',
        errorMessage: failedV7.error,
      },
    },
  ];
}
