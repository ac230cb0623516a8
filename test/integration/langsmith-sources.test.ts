import { beforeAll, describe, expect, it } from 'vitest';
import { SCENARIO_NAMES } from '../fixtures/scenarios.mjs';
import {
  expectCleanRun,
  expectRightRecord,
  runSource,
  SOURCE_RUN_TIMEOUT_MS,
  type SourceRun,
} from './recorded-source-run.js';

// LangSmith in OTel mode (test/fixtures/langsmith): the real `langsmith` and `openai` packages,
// `wrapOpenAI` or `traceable` runs made by hand, into the built @aqm/otel and the local service.
// LangSmith writes status OK when it first writes a run and the SDK keeps it when the run later
// fails: the failure is in the span's `exception` event, its missing output and the app's span.

describe.each([
  ['langsmith-openai', 'before'],
  ['langsmith-traceable', 'before'],
])('%s, LangSmith awaited %s the request span ends', (source, when) => {
  let run: SourceRun;
  beforeAll(async () => {
    run = await runSource('langsmith', source, { LANGSMITH_AWAIT: when });
  }, SOURCE_RUN_TIMEOUT_MS + 10_000);

  it('runs in OTel mode only: nothing on stderr, one trace per scenario, no connection beyond loopback', () => {
    expectCleanRun(run);
    expect(run.outbound).toEqual([]);
  });

  it.each(SCENARIO_NAMES)('%s: the question, the final text answer, the status, the model', (name) => {
    expectRightRecord(run, name, 'gpt-4o-mini');
  });
});
