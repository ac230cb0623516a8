import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { type ConventionCase, json, semconvMessages, usage } from './convention-case.js';

/** OpenInference (Arize), reference §3: flattened `llm.*_messages.{i}.message.*` attributes. */
export function openInferenceCases(): ConventionCase[] {
  const ok = { prompt: 'Name a prime number above 100', response: '101 is prime.' };
  const failed = { prompt: 'Write a haiku', error: 'Request timed out after 30000 ms' };
  const scope = '@arizeai/openinference-instrumentation-openai';
  return [
    {
      name: 'OpenInference: LLM span with llm.input_messages / llm.output_messages and token counts',
      spans: {
        name: 'OpenAI Chat Completions',
        kind: SpanKind.INTERNAL,
        scope,
        attributes: {
          'openinference.span.kind': 'LLM',
          'llm.model_name': 'gpt-4o-2024-08-06',
          'llm.system': 'openai',
          'llm.provider': 'openai',
          'input.value': json({ model: 'gpt-4o', messages: [{ role: 'user', content: ok.prompt }] }),
          'input.mime_type': 'application/json',
          'llm.input_messages.0.message.role': 'system',
          'llm.input_messages.0.message.content': 'You are a mathematician.',
          'llm.input_messages.1.message.role': 'user',
          'llm.input_messages.1.message.content': ok.prompt,
          'output.value': json({ choices: [{ message: { role: 'assistant', content: ok.response } }] }),
          'output.mime_type': 'application/json',
          'llm.output_messages.0.message.role': 'assistant',
          'llm.output_messages.0.message.content': ok.response,
          'llm.token_count.prompt': 30,
          'llm.token_count.completion': 5,
          'llm.token_count.total': 35,
        },
        status: { code: SpanStatusCode.OK },
      },
      expected: {
        ...ok,
        model: 'gpt-4o-2024-08-06',
        provider: 'openai',
        usage: usage(30, 5),
        status: 'success',
      },
    },
    {
      name: 'OpenInference: Responses API, content as message.contents arrays (input_text, output_text)',
      spans: {
        name: 'OpenAI Responses',
        kind: SpanKind.INTERNAL,
        scope,
        attributes: {
          'openinference.span.kind': 'LLM',
          'llm.model_name': 'gpt-4o-mini',
          'llm.system': 'openai',
          'input.value': json({ model: 'gpt-4o-mini', input: [{ role: 'user', content: ok.prompt }] }),
          'input.mime_type': 'application/json',
          'llm.input_messages.0.message.role': 'user',
          'llm.input_messages.0.message.contents.0.message_content.type': 'input_text',
          'llm.input_messages.0.message.contents.0.message_content.text': ok.prompt,
          'output.value': json({ object: 'response', output_text: ok.response }),
          'output.mime_type': 'application/json',
          'llm.output_messages.0.message.role': 'assistant',
          'llm.output_messages.0.message.contents.0.message_content.type': 'output_text',
          'llm.output_messages.0.message.contents.0.message_content.text': ok.response,
          'llm.token_count.prompt': 12,
          'llm.token_count.completion': 4,
          'llm.token_count.total': 16,
        },
        status: { code: SpanStatusCode.OK },
      },
      expected: { ...ok, model: 'gpt-4o-mini', provider: 'openai', usage: usage(12, 4), status: 'success' },
    },
    {
      name: 'OpenInference error: recordException and status ERROR with the message',
      spans: {
        name: 'OpenAI Chat Completions',
        kind: SpanKind.INTERNAL,
        scope,
        attributes: {
          'openinference.span.kind': 'LLM',
          'llm.model_name': 'gpt-4o-mini',
          'llm.provider': 'openai',
          'llm.input_messages.0.message.role': 'user',
          'llm.input_messages.0.message.content': failed.prompt,
        },
        exception: new Error(failed.error),
        status: { code: SpanStatusCode.ERROR, message: failed.error },
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

/** OpenLLMetry / Traceloop, reference §4: the current (≥0.25) and the legacy (≤0.22) format. */
export function traceloopCases(): ConventionCase[] {
  const current = { prompt: 'Who wrote Hamlet?', response: 'William Shakespeare wrote Hamlet.' };
  const legacy = { prompt: 'Tell me a joke about spans', response: 'A span walks into a trace and ends.' };
  const failedCurrent = {
    prompt: 'Summarise the release notes',
    error: '429 You exceeded your current quota',
  };
  const failedLegacy = { prompt: 'Translate "hello" to German', error: 'Request timed out.' };
  return [
    {
      name: 'Traceloop ≥0.25: SDK workflow span around a chat span with JSON gen_ai messages',
      spans: {
        name: 'qa.workflow',
        scope: '@traceloop/node-server-sdk',
        attributes: {
          'traceloop.span.kind': 'workflow',
          'traceloop.entity.name': 'qa',
          'traceloop.workflow.name': 'qa',
          'traceloop.entity.input': json({ args: [current.prompt], kwargs: {} }),
          'traceloop.entity.output': json(current.response),
        },
        children: [
          {
            name: 'chat gpt-4o',
            kind: SpanKind.CLIENT,
            scope: '@traceloop/instrumentation-openai',
            attributes: {
              'traceloop.workflow.name': 'qa',
              'gen_ai.provider.name': 'openai',
              'gen_ai.operation.name': 'chat',
              'gen_ai.request.model': 'gpt-4o',
              'gen_ai.input.messages': json(
                semconvMessages(
                  { role: 'system', text: 'You are a literature expert.' },
                  { role: 'user', text: current.prompt },
                ),
              ),
              'gen_ai.output.messages': json(
                semconvMessages({ role: 'assistant', text: current.response, finish_reason: 'stop' }),
              ),
              'gen_ai.response.model': 'gpt-4o-2024-08-06',
              'gen_ai.usage.input_tokens': 22,
              'gen_ai.usage.output_tokens': 7,
              'gen_ai.usage.total_tokens': 29,
            },
          },
        ],
      },
      expected: {
        ...current,
        model: 'gpt-4o-2024-08-06',
        provider: 'openai',
        usage: usage(22, 7),
        status: 'success',
      },
    },
    {
      name: 'Traceloop ≤0.22 legacy: gen_ai.prompt.{i}.* / gen_ai.completion.{i}.* attributes',
      spans: {
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
          'gen_ai.prompt.1.content': legacy.prompt,
          'gen_ai.completion.0.role': 'assistant',
          'gen_ai.completion.0.content': legacy.response,
          'gen_ai.completion.0.finish_reason': 'stop',
          'gen_ai.usage.prompt_tokens': 15,
          'gen_ai.usage.completion_tokens': 11,
          'llm.usage.total_tokens': 26,
        },
      },
      expected: {
        ...legacy,
        model: 'gpt-3.5-turbo-0125',
        provider: 'OpenAI',
        usage: usage(15, 11),
        status: 'success',
      },
    },
    {
      // §4a, instrumentation-langchain: a failed run gets recordException plus status ERROR (no
      // status message), and so does the chain around it; no output, usage or response model.
      name: 'Traceloop ≥0.25 error: LangChain workflow → chat, recordException plus status ERROR on both',
      spans: {
        name: 'workflow RunnableSequence',
        kind: SpanKind.INTERNAL,
        scope: '@traceloop/instrumentation-langchain',
        attributes: {
          'gen_ai.operation.name': 'workflow',
          'gen_ai.provider.name': 'langchain',
          'traceloop.span.kind': 'workflow',
          'traceloop.workflow.name': 'RunnableSequence',
          'traceloop.entity.input': json({ question: failedCurrent.prompt }),
        },
        exception: new Error(failedCurrent.error),
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
              'gen_ai.input.messages': json(
                semconvMessages(
                  { role: 'system', text: 'You write summaries.' },
                  { role: 'user', text: failedCurrent.prompt },
                ),
              ),
            },
            exception: new Error(failedCurrent.error),
            status: { code: SpanStatusCode.ERROR },
          },
        ],
      },
      expected: {
        prompt: failedCurrent.prompt,
        response: '',
        model: 'gpt-4o',
        provider: 'openai',
        usage: undefined,
        status: 'error',
        errorMessage: failedCurrent.error,
      },
    },
    {
      // §4b shape without completion or usage keys, with the error recorded as in §8.
      name: 'Traceloop ≤0.22 legacy error: openai.chat with prompts only, recordException plus status ERROR',
      spans: {
        name: 'openai.chat',
        kind: SpanKind.CLIENT,
        scope: '@traceloop/instrumentation-openai',
        attributes: {
          'gen_ai.system': 'OpenAI',
          'llm.request.type': 'chat',
          'gen_ai.request.model': 'gpt-3.5-turbo',
          'gen_ai.prompt.0.role': 'user',
          'gen_ai.prompt.0.content': failedLegacy.prompt,
        },
        exception: new Error(failedLegacy.error),
        status: { code: SpanStatusCode.ERROR },
      },
      expected: {
        prompt: failedLegacy.prompt,
        response: '',
        model: 'gpt-3.5-turbo',
        provider: 'OpenAI',
        usage: undefined,
        status: 'error',
        errorMessage: failedLegacy.error,
      },
    },
  ];
}
