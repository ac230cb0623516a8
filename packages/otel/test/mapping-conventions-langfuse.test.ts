import { SpanStatusCode } from '@opentelemetry/api';
import { describe, it } from 'vitest';
import { type ConventionCase, expectRecord, mapTrace } from './mapping-helpers/expect-record.js';
import { buildTrace, json } from './mapping-helpers/spans.js';

// Langfuse v5 as the real packages write it (test/fixtures/langfuse, recorded in
// test/recorded/langfuse-*.json), with no LangfuseSpanProcessor: the observations are plain OTel
// spans of scope `langfuse-sdk`, and nothing marks the app's root (`langfuse.internal.is_app_root`
// is that processor's).

const question = 'What is the capital of France?';
const answer = 'Paris.';
const messages = json([
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: question },
]);

/** The app's request span around one `generation` observation with these attributes. */
function generationUnderApp(attributes: Record<string, string>, appAttributes: Record<string, string> = {}) {
  return buildTrace({
    name: 'POST /ask',
    scope: 'fixture-app',
    attributes: appAttributes,
    children: [
      {
        name: 'OpenAI.chat',
        scope: 'langfuse-sdk',
        attributes: {
          'langfuse.observation.type': 'generation',
          'langfuse.observation.input': messages,
          'langfuse.observation.model.name': 'gpt-4o-mini',
          'langfuse.observation.output': json({ role: 'assistant', content: answer, refusal: null }),
          ...attributes,
        },
      },
    ],
  });
}

const cases: ConventionCase[] = [
  {
    // @langfuse/openai's parseUsageDetails: `input` = prompt_tokens minus every prompt detail,
    // `output` = completion_tokens minus every completion detail, the details as their own keys.
    name: '@langfuse/openai usage: cached and reasoning tokens counted back into input and output',
    build: () =>
      generationUnderApp({
        'langfuse.observation.usage_details': json({
          input: 70,
          output: 30,
          total: 200,
          input_cached_tokens: 80,
          input_audio_tokens: 0,
          output_reasoning_tokens: 20,
          output_audio_tokens: 0,
        }),
      }),
    expected: {
      prompt: question,
      response: answer,
      model: 'gpt-4o-mini',
      usage: { inputTokens: 150, outputTokens: 50, totalTokens: 200 },
      convention: 'langfuse',
    },
  },
  {
    // @langfuse/langchain's handleLLMEnd: LangChain's usage_metadata, its input_token_details
    // (cache_read, audio) taken out of `input`; LangChain's run metadata copied to the observation.
    name: '@langfuse/langchain: usage with cache reads, the provider from ls_provider',
    build: () =>
      generationUnderApp({
        'langfuse.observation.metadata.ls_provider': 'openai',
        'langfuse.observation.metadata.ls_model_name': 'gpt-4o-mini',
        'langfuse.observation.metadata.ls_model_type': 'chat',
        'langfuse.observation.usage_details': json({
          input: 4,
          output: 9,
          total: 19,
          input_audio: 0,
          input_cache_read: 6,
          output_audio: 0,
          output_reasoning: 0,
        }),
      }),
    expected: {
      prompt: question,
      response: answer,
      model: 'gpt-4o-mini',
      provider: 'openai',
      usage: { inputTokens: 10, outputTokens: 9, totalTokens: 19 },
      convention: 'langfuse',
    },
  },
  {
    // An app that sets usageDetails by hand with OpenAI's names: no detail buckets, nothing added.
    name: 'usage set by hand with OpenAI key names is read as it is',
    build: () =>
      generationUnderApp({
        'langfuse.observation.usage_details': json({ input_tokens: 12, output_tokens: 3, total_tokens: 15 }),
      }),
    expected: {
      prompt: question,
      response: answer,
      model: 'gpt-4o-mini',
      usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
      convention: 'langfuse',
    },
  },
  {
    // propagateAttributes / observeOpenAI({userId, sessionId, metadata}) without
    // LangfuseSpanProcessor: the attributes go on the span active at the call only, the app's.
    name: 'propagated user, session and metadata on the app span (no Langfuse marks there)',
    build: () =>
      generationUnderApp(
        {},
        {
          'user.id': 'user-7',
          'session.id': 'session-42',
          'langfuse.trace.metadata.tier': 'free',
        },
      ),
    expected: {
      prompt: question,
      response: answer,
      model: 'gpt-4o-mini',
      userId: 'user-7',
      sessionId: 'session-42',
      convention: 'langfuse',
    },
  },
  {
    // observe() around a function that throws: level ERROR, the message, and as output
    // `{error: String(error)}`. That output is the failure, not an answer to score.
    name: 'observe() failure: the `{error}` output of an ERROR observation is no response',
    build: () =>
      buildTrace({
        name: 'answer-question',
        scope: 'langfuse-sdk',
        attributes: {
          'langfuse.observation.type': 'chain',
          'langfuse.observation.input': question,
          'langfuse.observation.level': 'ERROR',
          'langfuse.observation.status_message': '500 the model failed',
          'langfuse.observation.output': json({ error: 'Error: 500 the model failed' }),
        },
        children: [
          {
            name: 'answer',
            scope: 'langfuse-sdk',
            attributes: {
              'langfuse.observation.type': 'generation',
              'langfuse.observation.input': messages,
              'langfuse.observation.model.name': 'gpt-4o-mini',
            },
            status: { code: SpanStatusCode.ERROR, message: '500 the model failed' },
          },
        ],
      }),
    expected: {
      prompt: question,
      response: '',
      model: 'gpt-4o-mini',
      status: 'error',
      errorMessage: '500 the model failed',
      convention: 'langfuse',
    },
  },
];

describe('buildTraceRecord: Langfuse v5 as its packages write it', () => {
  it.each(cases)('$name', ({ build, expected }) => {
    const built = build();
    expectRecord(mapTrace(built), expected, built);
  });
});
