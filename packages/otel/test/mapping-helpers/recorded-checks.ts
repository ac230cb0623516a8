import { describe, expect, it } from 'vitest';
import { loadRecordings, type RecordedScenario } from './recorded.js';

// What every record made from a recording of a real instrumentation must say, wherever it was made:
// by the mapping (packages/otel/test/recorded-sources.test.ts) or by the local service behind a
// forwarder (test/http/forwarder/recorded-sources.test.ts).

/** The fields of a record (the mapping's, or the service's stored trace) that a recording fixes. */
export interface ScenarioRecord {
  prompt: string;
  response: string;
  status: string;
  errorMessage?: string | null;
  model?: string | null;
}

/**
 * The record's prompt is the user's question, its response the model's last text answer, a failed
 * call an error that says why, and the model the recorded one.
 */
export function expectRecordOfScenario(record: ScenarioRecord | undefined, scenario: RecordedScenario): void {
  expect(record?.prompt).toBe(scenario.question);
  expect(record?.status).toBe(scenario.failed ? 'error' : 'success');
  if (scenario.failed) expect(record?.errorMessage, 'the failure says why').toBeTruthy();
  else expect(record?.response).toBe(scenario.answer);
  if (scenario.model !== undefined) expect(record?.model).toBe(scenario.model);
}

/**
 * A test that there are recordings (under `what`), then per recording a describe and per scenario
 * a test `title` that runs `check`. New recordings are picked up.
 */
export function describeEachRecordedScenario(
  what: string,
  title: string,
  check: (scenario: RecordedScenario) => void | Promise<void>,
): void {
  const recordings = loadRecordings();
  describe(what, () => {
    it('are there', () => {
      expect(recordings.length).toBeGreaterThan(0);
    });
  });
  describe.each(recordings.map((recording) => [recording.source, recording] as const))(
    '%s',
    (_source, recording) => {
      it.each(recording.scenarios.map((scenario) => [scenario.name, scenario] as const))(
        `%s: ${title}`,
        (_name, scenario) => check(scenario),
      );
    },
  );
}
