import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { type ConventionCase, json, semconvMessages, usage } from './convention-case.js';

const OTEL_OPENAI = '@opentelemetry/instrumentation-openai';

/** OTel GenAI semantic conventions, in the three places content has lived (reference §1, §2). */
export function semconvCases(): ConventionCase[] {
  const current = {
    prompt: 'Which planet has the most moons?',
    response: 'Saturn has the most known moons.',
  };
  const events = { prompt: 'Capital of Australia?', response: 'Canberra.' };
  const chatLogs = { prompt: 'Say hello in Dutch', response: 'Hallo!' };
  const responsesLogs = { prompt: 'Translate "good morning" to Spanish', response: 'Buenos días.' };
  const failed = { prompt: 'Summarise this contract', error: '429 Rate limit reached for gpt-4o-mini' };
  return [
    {
      name: 'OTel GenAI semconv ≥1.37: JSON gen_ai.input/output.messages on the span',
      spans: {
        name: 'chat claude-sonnet-4',
        kind: SpanKind.CLIENT,
        scope: 'my-genai-instrumentation',
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'anthropic',
          'gen_ai.request.model': 'claude-sonnet-4',
          'gen_ai.response.model': 'claude-sonnet-4-20250514',
          'gen_ai.system_instructions': json([{ type: 'text', content: 'You are an astronomer.' }]),
          'gen_ai.input.messages': json(semconvMessages({ role: 'user', text: current.prompt })),
          'gen_ai.output.messages': json(
            semconvMessages({ role: 'assistant', text: current.response, finish_reason: 'stop' }),
          ),
          'gen_ai.response.finish_reasons': ['stop'],
          'gen_ai.usage.input_tokens': 100,
          'gen_ai.usage.output_tokens': 20,
        },
      },
      expected: {
        ...current,
        model: 'claude-sonnet-4-20250514',
        provider: 'anthropic',
        usage: usage(100, 20),
        status: 'success',
      },
    },
    {
      name: 'OTel GenAI semconv ≤1.27: gen_ai.content.prompt / gen_ai.content.completion span events',
      spans: {
        name: 'chat gpt-4',
        kind: SpanKind.CLIENT,
        scope: 'legacy-genai-instrumentation',
        attributes: {
          'gen_ai.system': 'openai',
          'gen_ai.request.model': 'gpt-4',
          'gen_ai.response.model': 'gpt-4-0613',
          'gen_ai.usage.prompt_tokens': 14,
          'gen_ai.usage.completion_tokens': 3,
        },
        events: [
          {
            name: 'gen_ai.content.prompt',
            attributes: {
              'gen_ai.prompt': json([
                { role: 'system', content: 'Answer in one word.' },
                { role: 'user', content: events.prompt },
              ]),
            },
          },
          {
            name: 'gen_ai.content.completion',
            attributes: { 'gen_ai.completion': json([{ role: 'assistant', content: events.response }]) },
          },
        ],
      },
      expected: {
        ...events,
        model: 'gpt-4-0613',
        provider: 'openai',
        usage: usage(14, 3),
        status: 'success',
      },
    },
    {
      name: '@opentelemetry/instrumentation-openai chat: content on log records joined by AqmLogRecordProcessor',
      spans: {
        name: 'chat gpt-4o-mini',
        kind: SpanKind.CLIENT,
        scope: OTEL_OPENAI,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.system': 'openai',
          'server.address': 'api.openai.com',
          'server.port': 443,
          'gen_ai.response.id': 'chatcmpl-e2e',
          'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
          'gen_ai.response.finish_reasons': ['stop'],
          'gen_ai.usage.input_tokens': 24,
          'gen_ai.usage.output_tokens': 4,
        },
        logs: [
          openAiLog('gen_ai.system.message', { content: 'You are a polyglot.' }),
          openAiLog('gen_ai.user.message', { content: chatLogs.prompt }),
          openAiLog('gen_ai.choice', {
            finish_reason: 'stop',
            index: 0,
            message: { content: chatLogs.response },
          }),
        ],
      },
      expected: {
        ...chatLogs,
        model: 'gpt-4o-mini-2024-07-18',
        provider: 'openai',
        usage: usage(24, 4),
        status: 'success',
      },
    },
    {
      name: '@opentelemetry/instrumentation-openai Responses API: operation-details log records (top-level eventName)',
      spans: {
        name: 'chat gpt-4.1',
        kind: SpanKind.CLIENT,
        scope: OTEL_OPENAI,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4.1',
          'gen_ai.system_instructions': 'You translate.',
          'gen_ai.response.model': 'gpt-4.1-2025-04-14',
          'gen_ai.response.finish_reasons': ['stop'],
          'gen_ai.usage.input_tokens': 31,
          'gen_ai.usage.output_tokens': 6,
        },
        logs: [
          {
            eventName: 'gen_ai.client.inference.operation.details',
            attributes: {
              'gen_ai.input.messages': semconvMessages(
                { role: 'system', text: 'You translate.' },
                { role: 'user', text: responsesLogs.prompt },
              ),
            },
          },
          {
            eventName: 'gen_ai.client.inference.operation.details',
            attributes: {
              'gen_ai.output.messages': semconvMessages({
                role: 'assistant',
                text: responsesLogs.response,
                finish_reason: 'stop',
              }),
            },
          },
        ],
      },
      expected: {
        ...responsesLogs,
        model: 'gpt-4.1-2025-04-14',
        provider: 'openai',
        usage: usage(31, 6),
        status: 'success',
      },
    },
    {
      name: '@opentelemetry/instrumentation-openai error: status ERROR with message and error.type, no output',
      spans: {
        name: 'chat gpt-4o-mini',
        kind: SpanKind.CLIENT,
        scope: OTEL_OPENAI,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.system': 'openai',
          'error.type': 'RateLimitError',
        },
        status: { code: SpanStatusCode.ERROR, message: failed.error },
        logs: [openAiLog('gen_ai.user.message', { content: failed.prompt })],
      },
      expected: {
        prompt: failed.prompt,
        response: '',
        model: 'gpt-4o-mini',
        provider: 'openai',
        usage: undefined,
        status: 'error',
        errorMessage: failed.error,
      },
    },
  ];
}

/** A log record of `@opentelemetry/instrumentation-openai`: event name in the `event.name` attribute. */
function openAiLog(eventName: string, body: Record<string, unknown>) {
  return { body, attributes: { 'event.name': eventName, 'gen_ai.system': 'openai' } };
}
