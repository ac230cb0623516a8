import { afterAll, beforeAll, expect } from 'vitest';
import {
  describeEachRecordedScenario,
  expectRecordOfScenario,
} from '../../../packages/otel/test/mapping-helpers/recorded-checks.js';
import { waitFor } from '../otel/helpers/wait.js';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import { postOtlp } from './helpers/otlp-bodies.js';
import { scenarioRequest } from './helpers/recorded-otlp.js';

// Parity with the exporter: every recording of a real instrumentation (packages/otel/test/recorded,
// `pnpm fixtures:record`), sent to a forwarder as the OTLP/JSON an app's exporter would send,
// stored by the local service with the same question, final text answer and status that
// packages/otel/test/recorded-sources.test.ts expects of @aqm/otel. New recordings are picked up.

let stack: ForwarderStack;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-recorded');
});
afterAll(async () => {
  await stack?.close();
});

describeEachRecordedScenario(
  'recordings of real instrumentations through the forwarder',
  'stored with the question, the final text answer, the status',
  async (scenario) => {
    const forwarder = await stack.forwarder({ rootGraceMs: 0 });
    const { traceId, body } = scenarioRequest(scenario);
    const answer = await postOtlp(forwarder.url, body, { contentType: 'application/json' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({});
    await waitFor(() => forwarder.stats().pipeline.exportedTraces === 1, 'the trace delivered');
    const stored = await stack.service.client.traces.get(stack.applicationId, traceId);
    expectRecordOfScenario(stored, scenario);
    expect(stored.spanCount).toBe(scenario.spans.length);
  },
);
