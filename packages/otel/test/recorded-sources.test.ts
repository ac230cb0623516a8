import { evaluationTraceSchema } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { buildTraceRecord } from '../src/mapping/build-record.js';
import { loadRecordings, scenarioSpans } from './mapping-helpers/recorded.js';

// Spans recorded from the real instrumentation packages against the fake model (test/fixtures/*,
// `pnpm fixtures:record`), replayed through the mapping: whatever the source and the shape of the
// trace, the record's prompt is the user's question, its response the model's last text answer,
// and a failed call is an error.
const recordings = loadRecordings();

describe('recordings of real instrumentations', () => {
  it('are there', () => {
    expect(recordings.length).toBeGreaterThan(0);
  });
});

describe.each(recordings.map((recording) => [recording.source, recording] as const))(
  '%s',
  (_source, recording) => {
    it.each(recording.scenarios.map((scenario) => [scenario.name, scenario] as const))(
      '%s: the question, the final text answer, the status',
      (_name, scenario) => {
        const record = buildTraceRecord(scenarioSpans(scenario), [], { maxValueChars: 32_768 });
        expect(record, 'a record').toBeDefined();
        const parsed = evaluationTraceSchema.safeParse(record);
        expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
        expect(record?.prompt).toBe(scenario.question);
        expect(record?.status).toBe(scenario.failed ? 'error' : 'success');
        if (scenario.failed) expect(record?.errorMessage, 'the failure says why').toBeTruthy();
        else expect(record?.response).toBe(scenario.answer);
        if (scenario.model !== undefined) expect(record?.model).toBe(scenario.model);
      },
    );
  },
);
