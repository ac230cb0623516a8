import { randomBytes } from 'node:crypto';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  type RecordedScenario,
  toReadableSpan,
} from '../../../packages/otel/test/mapping-helpers/recorded.js';
import {
  describeEachRecordedScenario,
  expectRecordOfScenario,
} from '../../../packages/otel/test/mapping-helpers/recorded-checks.js';
import { waitFor } from '../otel/helpers/wait.js';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import { grpcExport } from './helpers/grpc-export.js';
import { postOtlp, protoBody } from './helpers/otlp-bodies.js';

// Parity of the two receivers: every recording of a real instrumentation (the fixtures of
// recorded-sources.test.ts), sent once to /v1/traces and once to TraceService/Export as the
// protobuf an exporter sends, is stored by the local service as the same record, and as the
// recording says.

let stack: ForwarderStack;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-recorded-grpc');
});
afterAll(async () => {
  await stack?.close();
});

/** The scenario's spans under a fresh trace id (two sends must not share one), in end order. */
function spansOf(scenario: RecordedScenario): { traceId: string; spans: ReadableSpan[] } {
  const traceId = randomBytes(16).toString('hex');
  const spans = scenario.spans
    .map((span) => toReadableSpan({ ...span, traceId }))
    .sort((a, b) => a.endTime[0] - b.endTime[0] || a.endTime[1] - b.endTime[1]);
  return { traceId, spans };
}

/** A stored trace without its trace id, the one thing two sends of the same spans differ in. */
function withoutTraceId(trace: object): object {
  const { traceId: _traceId, ...rest } = trace as { traceId: string };
  return rest;
}

describeEachRecordedScenario(
  'recordings of real instrumentations through the forwarder over gRPC',
  'stored as over HTTP, with the question, the final text answer, the status',
  async (scenario) => {
    const forwarder = await stack.forwarder({ rootGraceMs: 0, grpcPort: 0 });
    const overHttp = spansOf(scenario);
    expect((await postOtlp(forwarder.url, protoBody(overHttp.spans))).status).toBe(200);
    const overGrpc = spansOf(scenario);
    const answer = await grpcExport(`127.0.0.1:${forwarder.grpcPort}`, protoBody(overGrpc.spans));
    expect(answer).toEqual({ ok: true, response: Buffer.alloc(0) });
    await waitFor(() => forwarder.stats().pipeline.exportedTraces === 2, 'both traces delivered');
    const stored = async (traceId: string) => stack.service.client.traces.get(stack.applicationId, traceId);
    const fromGrpc = await stored(overGrpc.traceId);
    expectRecordOfScenario(fromGrpc, scenario);
    expect(fromGrpc.spanCount).toBe(scenario.spans.length);
    expect(withoutTraceId(fromGrpc)).toEqual(withoutTraceId(await stored(overHttp.traceId)));
  },
);
