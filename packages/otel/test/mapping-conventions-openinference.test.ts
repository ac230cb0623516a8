import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, it } from 'vitest';
import { type ConventionCase, expectRecord, mapTrace } from './mapping-helpers/expect-record.js';
import { buildTrace, json } from './mapping-helpers/spans.js';

const cases: ConventionCase[] = [
  {
    name: 'OpenInference openai: flattened llm.input_messages with contents, JSON input.value/output.value',
    build: () =>
      buildTrace({
        name: 'OpenAI Chat Completions',
        kind: SpanKind.INTERNAL,
        scope: '@arizeai/openinference-instrumentation-openai',
        attributes: {
          'openinference.span.kind': 'LLM',
          'llm.model_name': 'gpt-4o-mini-2024-07-18',
          'input.value': json({
            model: 'gpt-4o-mini',
            messages: [
              { role: 'system', content: 'You are helpful.' },
              { role: 'user', content: [{ type: 'text', text: 'Describe this image' }] },
            ],
          }),
          'input.mime_type': 'application/json',
          'llm.invocation_parameters': json({ model: 'gpt-4o-mini' }),
          'llm.system': 'openai',
          'llm.provider': 'openai',
          'llm.input_messages.0.message.role': 'system',
          'llm.input_messages.0.message.content': 'You are helpful.',
          'llm.input_messages.1.message.role': 'user',
          'llm.input_messages.1.message.contents.0.message_content.type': 'text',
          'llm.input_messages.1.message.contents.0.message_content.text': 'Describe this image',
          'llm.input_messages.1.message.contents.1.message_content.type': 'image',
          'llm.input_messages.1.message.contents.1.message_content.image.image.url':
            'https://example.com/cat.png',
          'output.value': json({ choices: [{ message: { role: 'assistant', content: 'A cat on a mat.' } }] }),
          'output.mime_type': 'application/json',
          'llm.output_messages.0.message.role': 'assistant',
          'llm.output_messages.0.message.content': 'A cat on a mat.',
          'llm.token_count.prompt': 30,
          'llm.token_count.completion': 4,
          'llm.token_count.total': 34,
        },
        status: { code: SpanStatusCode.OK },
      }),
    expected: {
      prompt: 'Describe this image',
      response: 'A cat on a mat.',
      model: 'gpt-4o-mini-2024-07-18',
      provider: 'openai',
      usage: { inputTokens: 30, outputTokens: 4, totalTokens: 34 },
      convention: 'openinference',
    },
  },
  {
    name: 'OpenInference openai Responses API: input and output as message.contents arrays (input_text / output_text)',
    build: () =>
      buildTrace({
        name: 'OpenAI Responses',
        kind: SpanKind.INTERNAL,
        scope: '@arizeai/openinference-instrumentation-openai',
        // As recorded from @arizeai/openinference-instrumentation-openai 4.2.7 against the fake model.
        attributes: {
          'openinference.span.kind': 'LLM',
          'llm.model_name': 'gpt-4o-mini',
          'input.value': json({
            model: 'gpt-4o-mini',
            instructions: 'Be brief.',
            input: [{ role: 'user', content: [{ type: 'input_text', text: 'Name a colour.' }] }],
          }),
          'input.mime_type': 'application/json',
          'llm.system': 'openai',
          'llm.input_messages.0.message.role': 'system',
          'llm.input_messages.0.message.content': 'Be brief.',
          'llm.input_messages.1.message.role': 'user',
          'llm.input_messages.1.message.contents.0.message_content.type': 'input_text',
          'llm.input_messages.1.message.contents.0.message_content.text': 'Name a colour.',
          'output.value': json({ id: 'resp_1', object: 'response', output_text: 'Blue.' }),
          'output.mime_type': 'application/json',
          'llm.output_messages.0.message.role': 'assistant',
          'llm.output_messages.0.message.contents.0.message_content.type': 'reasoning',
          'llm.output_messages.0.message.contents.0.message_content.text': 'The user wants one colour.',
          'llm.output_messages.0.message.contents.1.message_content.type': 'output_text',
          'llm.output_messages.0.message.contents.1.message_content.text': 'Blue.',
          'llm.token_count.prompt': 5,
          'llm.token_count.completion': 2,
          'llm.token_count.total': 7,
        },
        status: { code: SpanStatusCode.OK },
      }),
    expected: {
      prompt: 'Name a colour.',
      response: 'Blue.',
      model: 'gpt-4o-mini',
      provider: 'openai',
      usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 },
      convention: 'openinference',
    },
  },
  {
    name: 'OpenInference openai Responses API: a refusal part is the response',
    build: () =>
      buildTrace({
        name: 'OpenAI Responses',
        scope: '@arizeai/openinference-instrumentation-openai',
        attributes: {
          'openinference.span.kind': 'LLM',
          'llm.model_name': 'gpt-4o-mini',
          'llm.input_messages.0.message.role': 'user',
          'llm.input_messages.0.message.contents.0.message_content.type': 'input_text',
          'llm.input_messages.0.message.contents.0.message_content.text': 'Help me pick a lock.',
          'llm.output_messages.0.message.role': 'assistant',
          'llm.output_messages.0.message.contents.0.message_content.type': 'refusal',
          'llm.output_messages.0.message.contents.0.message_content.text': 'I cannot help with that.',
        },
      }),
    expected: { prompt: 'Help me pick a lock.', response: 'I cannot help with that.', model: 'gpt-4o-mini' },
  },
  {
    name: 'OpenInference langchain: CHAIN root → RETRIEVER with documents → LLM child',
    build: () =>
      buildTrace({
        name: 'RunnableSequence',
        scope: '@arizeai/openinference-instrumentation-langchain',
        attributes: {
          'openinference.span.kind': 'CHAIN',
          'input.value': 'What is OpenTelemetry?',
          'input.mime_type': 'text/plain',
          'output.value': 'OpenTelemetry is an observability framework.',
          'output.mime_type': 'text/plain',
          metadata: json({ session_id: 'sess-7' }),
          'session.id': 'sess-7',
        },
        status: { code: SpanStatusCode.OK },
        children: [
          {
            name: 'VectorStoreRetriever',
            scope: '@arizeai/openinference-instrumentation-langchain',
            attributes: {
              'openinference.span.kind': 'RETRIEVER',
              'input.value': 'What is OpenTelemetry?',
              'retrieval.documents.0.document.content': 'OpenTelemetry is a CNCF project.',
              'retrieval.documents.0.document.metadata': json({ source: 'a.md' }),
              'retrieval.documents.1.document.content': 'It collects traces, metrics and logs.',
            },
          },
          {
            name: 'ChatOpenAI',
            scope: '@arizeai/openinference-instrumentation-langchain',
            attributes: {
              'openinference.span.kind': 'LLM',
              'llm.input_messages.0.message.role': 'system',
              'llm.input_messages.0.message.content': 'Answer from the context.',
              'llm.input_messages.1.message.role': 'user',
              'llm.input_messages.1.message.content': 'What is OpenTelemetry?',
              'llm.output_messages.0.message.role': 'assistant',
              'llm.output_messages.0.message.content': 'OpenTelemetry is an observability framework.',
              'llm.model_name': 'gpt-4o',
              'llm.provider': 'openai',
              'llm.token_count.prompt': 120,
              'llm.token_count.completion': 11,
              'llm.token_count.total': 131,
            },
          },
        ],
      }),
    expected: {
      prompt: 'What is OpenTelemetry?',
      response: 'OpenTelemetry is an observability framework.',
      model: 'gpt-4o',
      provider: 'openai',
      usage: { inputTokens: 120, outputTokens: 11, totalTokens: 131 },
      context: ['OpenTelemetry is a CNCF project.', 'It collects traces, metrics and logs.'],
      sessionId: 'sess-7',
    },
  },
];

describe('buildTraceRecord: OpenInference', () => {
  it.each(cases)('$name', ({ build, expected }) => {
    const built = build();
    expectRecord(mapTrace(built), expected, built);
  });
});
