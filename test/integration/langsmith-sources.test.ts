import { describe, expect } from 'vitest';
import { itRecordsTheFiveScenarios } from './recorded-source-run.js';

// LangSmith in OTel mode (test/fixtures/langsmith): the real `langsmith` and `openai` packages,
// `wrapOpenAI` or `traceable` runs made by hand, into the built @aqm/otel and the local service.
// LangSmith writes status OK when it first writes a run and the SDK keeps it when the run later
// fails: the failure is in the span's `exception` event, its missing output and the app's span.

describe.each([
  ['langsmith-openai', 'before'],
  ['langsmith-traceable', 'before'],
])('%s, LangSmith awaited %s the request span ends', (source, when) => {
  itRecordsTheFiveScenarios('langsmith', source, {
    model: 'gpt-4o-mini',
    env: { LANGSMITH_AWAIT: when },
    cleanTitle:
      'runs in OTel mode only: nothing on stderr, one trace per scenario, no connection beyond loopback',
    alsoClean: (run) => expect(run.outbound).toEqual([]),
  });
});
