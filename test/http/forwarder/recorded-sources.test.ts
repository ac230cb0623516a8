import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecordings } from '../../../packages/otel/test/mapping-helpers/recorded.js';
import { waitFor } from '../otel/helpers/wait.js';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import { postOtlp } from './helpers/otlp-bodies.js';
import { scenarioRequest } from './helpers/recorded-otlp.js';

// Parity with the exporter: every recording of a real instrumentation (packages/otel/test/recorded,
// `pnpm fixtures:record`), sent to a forwarder as the OTLP/JSON an app's exporter would send,
// stored by the local service with the same question, final text answer and status that
// packages/otel/test/recorded-sources.test.ts expects of @aqm/otel. New recordings are picked up.

const recordings = loadRecordings();

let stack: ForwarderStack;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-recorded');
});
afterAll(async () => {
  await stack?.close();
});

describe('recordings of real instrumentations through the forwarder', () => {
  it('are there', () => {
    expect(recordings.length).toBeGreaterThan(0);
  });
});

describe.each(recordings.map((recording) => [recording.source, recording] as const))(
  '%s',
  (_source, recording) => {
    it.each(recording.scenarios.map((scenario) => [scenario.name, scenario] as const))(
      '%s: stored with the question, the final text answer, the status',
      async (_name, scenario) => {
        const forwarder = await stack.forwarder({ rootGraceMs: 0 });
        const { traceId, body } = scenarioRequest(scenario);
        const answer = await postOtlp(forwarder.url, body, { contentType: 'application/json' });
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.text)).toEqual({});
        await waitFor(() => forwarder.stats().pipeline.exportedTraces === 1, 'the trace delivered');
        const stored = await stack.service.client.traces.get(stack.applicationId, traceId);
        expect(stored.prompt).toBe(scenario.question);
        expect(stored.status).toBe(scenario.failed ? 'error' : 'success');
        if (scenario.failed) expect(stored.errorMessage, 'the failure says why').toBeTruthy();
        else expect(stored.response).toBe(scenario.answer);
        if (scenario.model !== undefined) expect(stored.model).toBe(scenario.model);
        expect(stored.spanCount).toBe(scenario.spans.length);
      },
    );
  },
);
