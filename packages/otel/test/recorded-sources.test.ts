import { evaluationTraceSchema } from '@aqm/wire';
import { expect } from 'vitest';
import { buildTraceRecord } from '../src/mapping/build-record.js';
import { scenarioSpans } from './mapping-helpers/recorded.js';
import { describeEachRecordedScenario, expectRecordOfScenario } from './mapping-helpers/recorded-checks.js';

// Spans recorded from the real instrumentation packages against the fake model (test/fixtures/*,
// `pnpm fixtures:record`), replayed through the mapping: whatever the source and the shape of the
// trace, the record's prompt is the user's question, its response the model's last text answer,
// and a failed call is an error.
describeEachRecordedScenario(
  'recordings of real instrumentations',
  'the question, the final text answer, the status',
  (scenario) => {
    const record = buildTraceRecord(scenarioSpans(scenario), [], { maxValueChars: 32_768 });
    expect(record, 'a record').toBeDefined();
    const parsed = evaluationTraceSchema.safeParse(record);
    expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
    expectRecordOfScenario(record, scenario);
  },
);
