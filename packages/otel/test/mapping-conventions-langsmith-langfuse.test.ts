import { SpanStatusCode } from '@opentelemetry/api';
import { describe, it } from 'vitest';
import { type ConventionCase, expectRecord, mapTrace } from './mapping-helpers/expect-record.js';
import { buildTrace, json } from './mapping-helpers/spans.js';

const lcMessage = (className: string, content: string) => ({
  lc: 1,
  type: 'constructor',
  id: ['langchain_core', 'messages', className],
  kwargs: { content, additional_kwargs: {}, response_metadata: {} },
});

const cases: ConventionCase[] = [
  {
    name: 'LangSmith OTel mode: chain root (gen_ai.prompt JSON of inputs) → llm run with LangChain messages',
    build: () =>
      buildTrace({
        name: 'RunnableSequence',
        scope: 'langsmith',
        attributes: {
          'langsmith.span.kind': 'chain',
          'gen_ai.operation.name': 'chain',
          'langsmith.trace.name': 'RunnableSequence',
          'gen_ai.system': 'langchain',
          'langsmith.is_root': true,
          'gen_ai.prompt': json({ question: 'What is LangSmith?' }),
          'gen_ai.completion': json({ output: 'LangSmith is an LLM observability platform.' }),
          'langsmith.metadata.thread_id': 'thread-9',
          'langsmith.metadata.user_id': 'user-9',
          'langsmith.metadata.env': 'prod',
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
                  [
                    lcMessage('SystemMessage', 'Be helpful.'),
                    lcMessage('HumanMessage', 'What is LangSmith?'),
                  ],
                ],
              }),
              'gen_ai.completion': json({
                generations: [
                  [
                    {
                      text: 'LangSmith is an LLM observability platform.',
                      message: lcMessage('AIMessage', 'LangSmith is an LLM observability platform.'),
                    },
                  ],
                ],
                llm_output: {},
              }),
              'gen_ai.usage.input_tokens': 20,
              'gen_ai.usage.output_tokens': 8,
              'gen_ai.usage.total_tokens': 28,
            },
          },
        ],
      }),
    expected: {
      prompt: 'What is LangSmith?',
      response: 'LangSmith is an LLM observability platform.',
      model: 'gpt-4o-mini',
      provider: 'openai',
      usage: { inputTokens: 20, outputTokens: 8, totalTokens: 28 },
      sessionId: 'thread-9',
      userId: 'user-9',
      convention: 'semconv,langsmith',
    },
  },
  {
    name: 'Langfuse: agent observation → generation with input/output JSON and usage_details',
    build: () =>
      buildTrace({
        name: 'support-agent',
        scope: 'langfuse-sdk',
        attributes: {
          'langfuse.observation.type': 'agent',
          'langfuse.observation.input': 'How do I reset my password?',
          'langfuse.observation.output': 'Click "Forgot password" on the login page.',
          'session.id': 'lf-session',
          'user.id': 'lf-user',
        },
        children: [
          {
            name: 'llm-call',
            scope: 'langfuse-sdk',
            attributes: {
              'langfuse.observation.type': 'generation',
              'langfuse.observation.input': json([
                { role: 'system', content: 'You are support.' },
                { role: 'user', content: 'How do I reset my password?' },
              ]),
              'langfuse.observation.output': json({
                role: 'assistant',
                content: 'Click "Forgot password" on the login page.',
              }),
              'langfuse.observation.model.name': 'claude-3-5-sonnet',
              'langfuse.observation.model.parameters': json({ temperature: 0 }),
              'langfuse.observation.usage_details': json({ input: 50, output: 12, total: 62 }),
            },
          },
        ],
      }),
    expected: {
      prompt: 'How do I reset my password?',
      response: 'Click "Forgot password" on the login page.',
      model: 'claude-3-5-sonnet',
      provider: undefined,
      usage: { inputTokens: 50, outputTokens: 12, totalTokens: 62 },
      sessionId: 'lf-session',
      userId: 'lf-user',
      convention: 'langfuse',
    },
  },
  {
    // Reference §6: on error, status ERROR plus recordException (no status message is mentioned),
    // on the failed llm run and the chain around it; a failed run has no outputs (gen_ai.completion).
    // langsmith 0.12.0 really leaves status OK (see mapping-conventions-langsmith-otel-mode.test.ts);
    // a span whose status is ERROR all the same reads as here.
    name: 'LangSmith OTel mode error: chain root → llm run, status ERROR plus recordException, no outputs',
    build: () => {
      const failed = () => ({
        exception: new Error('Connection error.'),
        status: { code: SpanStatusCode.ERROR },
      });
      return buildTrace({
        name: 'RunnableSequence',
        scope: 'langsmith',
        attributes: {
          'langsmith.span.kind': 'chain',
          'gen_ai.operation.name': 'chain',
          'langsmith.trace.name': 'RunnableSequence',
          'gen_ai.system': 'langchain',
          'langsmith.is_root': true,
          'gen_ai.prompt': json({ question: 'Draft a refund e-mail' }),
        },
        ...failed(),
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
              'gen_ai.prompt': json({ messages: [[lcMessage('HumanMessage', 'Draft a refund e-mail')]] }),
            },
            ...failed(),
          },
        ],
      });
    },
    expected: {
      prompt: 'Draft a refund e-mail',
      response: '',
      model: 'gpt-4o-mini',
      provider: 'openai',
      status: 'error',
      errorMessage: 'Connection error.',
      convention: 'semconv,langsmith',
    },
  },
  {
    // Reference §7: `langfuse.observation.level` / `.status_message` are plain string attributes and
    // Langfuse sets no span status; an observation marked ERROR may still carry its output.
    name: 'Langfuse error: generation with level ERROR and a status_message, no span status',
    build: () =>
      buildTrace({
        name: 'support-agent',
        scope: 'langfuse-sdk',
        attributes: {
          'langfuse.observation.type': 'agent',
          'langfuse.observation.input': 'Cancel my subscription',
          'langfuse.observation.output': 'I cannot help with that.',
        },
        children: [
          {
            name: 'llm-call',
            scope: 'langfuse-sdk',
            attributes: {
              'langfuse.observation.type': 'generation',
              'langfuse.observation.input': json([{ role: 'user', content: 'Cancel my subscription' }]),
              'langfuse.observation.output': json({ role: 'assistant', content: 'I cannot help with that.' }),
              'langfuse.observation.model.name': 'claude-3-5-sonnet',
              'langfuse.observation.level': 'ERROR',
              'langfuse.observation.status_message': 'Output failed the policy check',
            },
          },
        ],
      }),
    expected: {
      prompt: 'Cancel my subscription',
      response: 'I cannot help with that.',
      model: 'claude-3-5-sonnet',
      provider: undefined,
      status: 'error',
      errorMessage: 'Output failed the policy check',
      convention: 'langfuse',
    },
  },
  {
    // The same mark on a span whose status is ERROR without a message (set by the app or another
    // instrumentation): the Langfuse status_message is the error message.
    name: 'Langfuse error: level ERROR and status_message on a span with status ERROR but no message',
    build: () =>
      buildTrace({
        name: 'llm-call',
        scope: 'langfuse-sdk',
        attributes: {
          'langfuse.observation.type': 'generation',
          'langfuse.observation.input': json([{ role: 'user', content: 'Summarise my invoice' }]),
          'langfuse.observation.model.name': 'gpt-4o',
          'langfuse.observation.level': 'ERROR',
          'langfuse.observation.status_message': 'Provider returned 503',
        },
        status: { code: SpanStatusCode.ERROR },
      }),
    expected: {
      prompt: 'Summarise my invoice',
      response: '',
      model: 'gpt-4o',
      provider: undefined,
      status: 'error',
      errorMessage: 'Provider returned 503',
      convention: 'langfuse',
    },
  },
];

describe('buildTraceRecord: LangSmith and Langfuse', () => {
  it.each(cases)('$name', ({ build, expected }) => {
    const built = build();
    expectRecord(mapTrace(built), expected, built);
  });
});
