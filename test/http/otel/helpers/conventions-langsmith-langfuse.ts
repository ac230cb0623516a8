import { SpanStatusCode } from '@opentelemetry/api';
import { type ConventionCase, json, usage } from './convention-case.js';

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
