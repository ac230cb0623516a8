import { describe, expect, it } from 'vitest';
import { buildTraceRecord } from '../src/mapping/build-record.js';
import { loadRecordings, scenarioSpans } from './mapping-helpers/recorded.js';
import { buildTrace } from './mapping-helpers/spans.js';

// One call seen by two instrumentations side by side (the Anthropic SDK's own span beside
// OpenInference's or Traceloop's, both children of the app's span) counts its tokens once; two
// parallel calls of one instrumentation count twice.
const OPTIONS = { maxValueChars: 32_768 };

describe('token usage of twin model-call spans', () => {
  it.each(['openinference-anthropic', 'traceloop-anthropic'])(
    '%s stream: the SDK span beside the instrumentation span counts once (before: 14/34)',
    (source) => {
      const recording = loadRecordings().find((candidate) => candidate.source === source);
      const scenario = recording?.scenarios.find((candidate) => candidate.name === 'stream');
      expect(scenario, `${source} stream recorded`).toBeDefined();
      const record = buildTraceRecord(scenarioSpans(scenario!), [], OPTIONS);
      expect(record?.usage).toEqual({ inputTokens: 7, outputTokens: 17, totalTokens: 24 });
    },
  );

  it('two parallel calls of one instrumentation count twice', () => {
    const call = (name: string) => ({
      name,
      scope: 'one-instrumentation',
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'm',
        'gen_ai.usage.input_tokens': 3,
        'gen_ai.usage.output_tokens': 5,
      },
    });
    const built = buildTrace({ name: 'POST /ask', children: [call('chat a'), call('chat b')] });
    expect(buildTraceRecord(built.spans, [], OPTIONS)?.usage).toEqual({
      inputTokens: 6,
      outputTokens: 10,
      totalTokens: 16,
    });
  });

  it('the same model from two instrumentations but not overlapping in time: two calls', () => {
    const call = (name: string, scope: string) => ({
      name,
      scope,
      attributes: {
        'gen_ai.request.model': 'm',
        'gen_ai.usage.input_tokens': 3,
        'gen_ai.usage.output_tokens': 5,
      },
    });
    // buildTrace starts and ends each span in turn, so siblings never overlap.
    const built = buildTrace({ name: 'POST /ask', children: [call('a', 'x'), call('b', 'y')] });
    expect(buildTraceRecord(built.spans, [], OPTIONS)?.usage).toMatchObject({ inputTokens: 6 });
  });
});
