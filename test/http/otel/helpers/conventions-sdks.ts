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

/** A LangChain message serialised as LangSmith does in `gen_ai.prompt` / `gen_ai.completion`. */
function lcMessage(className: string, content: string) {
  return {
    lc: 1,
    type: 'constructor',
    id: ['langchain_core', 'messages', className],
    kwargs: { content, additional_kwargs: {}, response_metadata: {} },
  };
}

/** LangSmith OTel mode (reference §6) and Langfuse (reference §7). */
export function langSmithAndLangfuseCases(): ConventionCase[] {
  const smith = { prompt: 'What is LangSmith?', response: 'LangSmith is an LLM observability platform.' };
  const fuse = {
    prompt: 'How do I reset my password?',
    response: 'Click "Forgot password" on the login page.',
  };
  const failedSmith = { prompt: 'Draft a refund e-mail', error: 'Connection error.' };
  const flagged = {
    prompt: 'Cancel my subscription',
    response: 'I cannot help with that.',
    error: 'Output failed the policy check',
  };
  const failedFuse = { prompt: 'Summarise my invoice', error: 'Provider returned 503' };
  return [
    {
      name: 'LangSmith OTel mode: chain root → llm run, gen_ai.prompt / gen_ai.completion JSON of the run',
      spans: {
        name: 'RunnableSequence',
        scope: 'langsmith',
        attributes: {
          'langsmith.span.kind': 'chain',
          'gen_ai.operation.name': 'chain',
          'langsmith.trace.name': 'RunnableSequence',
          'gen_ai.system': 'langchain',
          'langsmith.is_root': true,
          'gen_ai.prompt': json({ question: smith.prompt }),
          'gen_ai.completion': json({ output: smith.response }),
        },
        children: [
          {
            name: 'ChatOpenAI',
            scope: 'langsmith',
            attributes: {
              'langsmith.span.kind': 'llm',
              'gen_ai.operation.name': 'chat',
              'langsmith.trace.name': 'ChatOpenAI',
              'gen_ai.system': 'openai',
              'gen_ai.request.model': 'gpt-4o-mini',
              'gen_ai.prompt': json({
                messages: [
                  [lcMessage('SystemMessage', 'Be helpful.'), lcMessage('HumanMessage', smith.prompt)],
                ],
              }),
              'gen_ai.completion': json({
                generations: [[{ text: smith.response, message: lcMessage('AIMessage', smith.response) }]],
                llm_output: {},
              }),
              'gen_ai.usage.input_tokens': 20,
              'gen_ai.usage.output_tokens': 8,
            },
          },
        ],
      },
      expected: {
        ...smith,
        model: 'gpt-4o-mini',
        provider: 'openai',
        usage: usage(20, 8),
        status: 'success',
      },
    },
    {
      name: 'Langfuse: agent observation → generation with input/output JSON, model name and usage_details',
      spans: {
        name: 'support-agent',
        scope: 'langfuse-sdk',
        attributes: {
          'langfuse.observation.type': 'agent',
          'langfuse.observation.input': fuse.prompt,
          'langfuse.observation.output': fuse.response,
        },
        children: [
          {
            name: 'llm-call',
            scope: 'langfuse-sdk',
            attributes: {
              'langfuse.observation.type': 'generation',
              'langfuse.observation.input': json([
                { role: 'system', content: 'You are support.' },
                { role: 'user', content: fuse.prompt },
              ]),
              'langfuse.observation.output': json({ role: 'assistant', content: fuse.response }),
              'langfuse.observation.model.name': 'claude-3-5-sonnet',
              'langfuse.observation.model.parameters': json({ temperature: 0 }),
              'langfuse.observation.usage_details': json({ input: 50, output: 12, total: 62 }),
            },
          },
        ],
      },
      // Langfuse names no provider.
      expected: { ...fuse, model: 'claude-3-5-sonnet', usage: usage(50, 12), status: 'success' },
    },
    {
      // §6: on error, status ERROR plus recordException (no status message) on the failed llm run and
      // the chain around it; a failed run has no outputs, so no gen_ai.completion.
      name: 'LangSmith OTel mode error: chain root → llm run, status ERROR plus recordException, no outputs',
      spans: {
        name: 'RunnableSequence',
        scope: 'langsmith',
        attributes: {
          'langsmith.span.kind': 'chain',
          'gen_ai.operation.name': 'chain',
          'langsmith.trace.name': 'RunnableSequence',
          'gen_ai.system': 'langchain',
          'langsmith.is_root': true,
          'gen_ai.prompt': json({ question: failedSmith.prompt }),
        },
        exception: new Error(failedSmith.error),
        status: { code: SpanStatusCode.ERROR },
        children: [
          {
            name: 'ChatOpenAI',
            scope: 'langsmith',
            attributes: {
              'langsmith.span.kind': 'llm',
              'gen_ai.operation.name': 'chat',
              'langsmith.trace.name': 'ChatOpenAI',
              'gen_ai.system': 'openai',
              'gen_ai.request.model': 'gpt-4o-mini',
              'gen_ai.prompt': json({ messages: [[lcMessage('HumanMessage', failedSmith.prompt)]] }),
            },
            exception: new Error(failedSmith.error),
            status: { code: SpanStatusCode.ERROR },
          },
        ],
      },
      expected: {
        prompt: failedSmith.prompt,
        response: '',
        model: 'gpt-4o-mini',
        provider: 'openai',
        usage: undefined,
        status: 'error',
        errorMessage: failedSmith.error,
      },
    },
    {
      // §7: level and status_message are plain string attributes; Langfuse sets no span status. An
      // observation marked ERROR may still carry its output.
      name: 'Langfuse error: generation with level ERROR and a status_message, no span status',
      spans: {
        name: 'support-agent',
        scope: 'langfuse-sdk',
        attributes: {
          'langfuse.observation.type': 'agent',
          'langfuse.observation.input': flagged.prompt,
          'langfuse.observation.output': flagged.response,
        },
        children: [
          {
            name: 'llm-call',
            scope: 'langfuse-sdk',
            attributes: {
              'langfuse.observation.type': 'generation',
              'langfuse.observation.input': json([{ role: 'user', content: flagged.prompt }]),
              'langfuse.observation.output': json({ role: 'assistant', content: flagged.response }),
              'langfuse.observation.model.name': 'claude-3-5-sonnet',
              'langfuse.observation.level': 'ERROR',
              'langfuse.observation.status_message': flagged.error,
            },
          },
        ],
      },
      expected: {
        prompt: flagged.prompt,
        response: flagged.response,
        model: 'claude-3-5-sonnet',
        usage: undefined,
        status: 'error',
        errorMessage: flagged.error,
      },
    },
    {
      // The same mark on a span whose status is ERROR without a message (set by the app or another
      // instrumentation): the status_message is the error message.
      name: 'Langfuse error: level ERROR and status_message on a span with status ERROR but no message',
      spans: {
        name: 'llm-call',
        scope: 'langfuse-sdk',
        attributes: {
          'langfuse.observation.type': 'generation',
          'langfuse.observation.input': json([{ role: 'user', content: failedFuse.prompt }]),
          'langfuse.observation.model.name': 'gpt-4o',
          'langfuse.observation.level': 'ERROR',
          'langfuse.observation.status_message': failedFuse.error,
        },
        status: { code: SpanStatusCode.ERROR },
      },
      expected: {
        prompt: failedFuse.prompt,
        response: '',
        model: 'gpt-4o',
        usage: undefined,
        status: 'error',
        errorMessage: failedFuse.error,
      },
    },
  ];
}
