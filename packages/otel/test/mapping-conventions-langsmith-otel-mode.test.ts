import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { buildTraceRecord } from '../src/mapping/build-record.js';
import { langsmithReader } from '../src/mapping/conventions/langsmith.js';
import { SpanView } from '../src/mapping/span-view.js';
import { type ConventionCase, expectRecord, mapTrace } from './mapping-helpers/expect-record.js';
import { loadRecordings, scenarioSpans } from './mapping-helpers/recorded.js';
import { buildTrace, json } from './mapping-helpers/spans.js';

// LangSmith's OTel mode as `langsmith` 0.12.0 really writes it (test/fixtures/langsmith, recorded
// in packages/otel/test/recorded/langsmith-*.json), where it differs from what its code suggests:
// a failed run keeps status OK (set when the run was first written; the SDK ignores the later
// ERROR) and carries an `exception` event; a streamed run is written onto the app's own span.

const FAILURE = 'Error: 500 respond threw: the fake model fails on purpose';

/** The attributes LangSmith's translator writes on a wrapOpenAI `llm` run, before its outputs. */
function llmRun(question: string) {
  return {
    'langsmith.traceable': 'true',
    'langsmith.span.kind': 'llm',
    'gen_ai.operation.name': 'chat',
    'langsmith.trace.name': 'ChatOpenAI',
    'langsmith.trace.session_name': 'default',
    'gen_ai.system': 'openai',
    'gen_ai.request.model': 'gpt-4o-mini',
    'langsmith.metadata.ls_provider': 'openai',
    'langsmith.metadata.ls_model_name': 'gpt-4o-mini',
    'langsmith.span.tags': '',
    'gen_ai.prompt': json({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }] }),
  };
}

const cases: ConventionCase[] = [
  {
    name: 'a failed run: status OK, an exception event, no outputs, under the app span (status ERROR)',
    build: () =>
      buildTrace({
        name: 'POST /ask',
        scope: 'fixture-app',
        status: { code: SpanStatusCode.ERROR, message: '500 respond threw: the fake model fails on purpose' },
        children: [
          {
            name: 'ChatOpenAI',
            scope: 'langsmith',
            attributes: llmRun('FAIL this call, please.'),
            status: { code: SpanStatusCode.OK },
            exception: new Error(FAILURE),
          },
        ],
      }),
    expected: {
      prompt: 'FAIL this call, please.',
      response: '',
      model: 'gpt-4o-mini',
      provider: 'openai',
      status: 'error',
      errorMessage: FAILURE,
      convention: 'semconv,langsmith',
    },
  },
  {
    name: "a streamed run: written onto the app's own span (LangSmith's own span never ends)",
    build: () =>
      buildTrace({
        name: 'POST /ask',
        scope: 'fixture-app',
        attributes: {
          ...llmRun('Name a colour of the French flag.'),
          'langsmith.request.streaming': true,
          'gen_ai.completion': json({
            object: 'chat.completion.chunk',
            model: 'gpt-4o-mini',
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Blue.' } }],
          }),
        },
        status: { code: SpanStatusCode.OK },
      }),
    expected: {
      prompt: 'Name a colour of the French flag.',
      response: 'Blue.',
      model: 'gpt-4o-mini',
      provider: 'openai',
      convention: 'semconv,langsmith',
    },
  },
];

describe('buildTraceRecord: LangSmith OTel mode as langsmith 0.12.0 writes it', () => {
  it.each(cases)('$name', ({ build, expected }) => {
    const built = build();
    expectRecord(mapTrace(built), expected, built);
  });

  it.each(['langsmith-openai', 'langsmith-traceable'])(
    '%s recording: the failed call is an error, and says why',
    (source) => {
      const scenario = loadRecordings()
        .find((recording) => recording.source === source)
        ?.scenarios.find((candidate) => candidate.name === 'failed call');
      expect(scenario).toBeDefined();
      const record = buildTraceRecord(scenarioSpans(scenario!), [], { maxValueChars: 32_768 });
      expect(record?.status).toBe('error');
      expect(record?.errorMessage).toBe(FAILURE);
    },
  );
});

describe('langsmithReader', () => {
  const viewOf = (built: ReturnType<typeof buildTrace>, name: string) => new SpanView(built.byName(name), 0);

  it('reads an exception event as the failure of a LangSmith run only, not of another span', () => {
    const built = buildTrace({
      name: 'POST /ask',
      scope: 'fixture-app',
      exception: new Error('handled and retried'),
      status: { code: SpanStatusCode.OK },
      children: [
        {
          name: 'ChatOpenAI',
          scope: 'langsmith',
          attributes: llmRun('Hi'),
          status: { code: SpanStatusCode.OK },
        },
      ],
    });
    expect(langsmithReader.error?.(viewOf(built, 'POST /ask'))).toBeUndefined();
    expect(langsmithReader.error?.(viewOf(built, 'ChatOpenAI'))).toBeUndefined();
  });

  it("keeps the app's run metadata and leaves out LangSmith's own (ls_*, usage_metadata, copied environment)", () => {
    const built = buildTrace({
      name: 'ChatOpenAI',
      scope: 'langsmith',
      attributes: {
        ...llmRun('Hi'),
        'langsmith.metadata.LANGSMITH_TRACING': 'true',
        'langsmith.metadata.LANGSMITH_OTEL_ENABLED': 'true',
        'langsmith.metadata.LANGCHAIN_CALLBACKS_BACKGROUND': 'false',
        'langsmith.metadata.ls_model_type': 'chat',
        'langsmith.metadata.ls_invocation_params': '{}',
        'langsmith.metadata.usage_metadata': json({ input_tokens: 6, output_tokens: 20, total_tokens: 26 }),
        'langsmith.metadata.customer_tier': 'gold',
        'langsmith.metadata.revision_id': 'v42',
        'langsmith.metadata.thread_id': 'thread-1',
      },
    });
    expect(langsmithReader.metadata?.(viewOf(built, 'ChatOpenAI'))).toEqual([
      ['langsmith.metadata.customer_tier', 'gold'],
      ['langsmith.metadata.revision_id', 'v42'],
    ]);
  });
});
