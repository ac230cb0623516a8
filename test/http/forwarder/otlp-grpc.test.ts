import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:http2';
import { gzipSync } from 'node:zlib';
import { status } from '@grpc/grpc-js';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, within } from '../otel/helpers/wait.js';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import { grpcExport, LOGS, partialSuccess, statusDetails, TRACES } from './helpers/grpc-export.js';
import { startForwarderBeforeHangingService } from './helpers/hanging-service.js';
import { llmTraceSpans, protoBody } from './helpers/otlp-bodies.js';

let stack: ForwarderStack;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-grpc');
});
afterAll(async () => {
  await stack?.close();
});

/** `host:port` of a forwarder's gRPC receiver. */
function grpcAddress(forwarder: { grpcPort: number | undefined }): string {
  expect(forwarder.grpcPort).toBeGreaterThan(0);
  return `127.0.0.1:${forwarder.grpcPort}`;
}

/** `span` with other ids: a trace id or span id the forwarder cannot use. */
function withIds(span: ReadableSpan, traceId: string, spanId: string): ReadableSpan {
  const context = { ...span.spanContext(), traceId, spanId };
  return { ...span, spanContext: () => context };
}

describe('OTLP/gRPC ingest in front of the local service', () => {
  it("opens HTTP/2 windows of 1 MiB a call and 4 MiB a connection, not Node's 64 KiB", async () => {
    const forwarder = await stack.forwarder({ grpcPort: 0 });
    const session = connect(`http://${grpcAddress(forwarder)}`);
    try {
      // The server's SETTINGS: each call's window; then a WINDOW_UPDATE widens the connection's.
      const [settings] = (await once(session, 'remoteSettings')) as [{ initialWindowSize?: number }];
      expect(settings.initialWindowSize).toBe(1024 * 1024);
      await waitFor(
        () => (session.state.remoteWindowSize ?? 0) >= 4 * 1024 * 1024,
        'the connection window widened',
      );
    } finally {
      session.close();
    }
  });

  it('is off without grpcPort, and listens on a port of its own with grpcPort: 0', async () => {
    const plain = await stack.forwarder();
    expect(plain.grpcPort).toBeUndefined();
    expect(plain.grpcUrl).toBeUndefined();
    const forwarder = await stack.forwarder({ grpcPort: 0 });
    expect(forwarder.grpcPort).toBeGreaterThan(0);
    expect(forwarder.grpcUrl).toBe(`http://127.0.0.1:${forwarder.grpcPort}`);
    expect(forwarder.grpcPort).not.toBe(Number(new URL(forwarder.url).port));
  });

  it('takes TraceService/Export (plain and gzip): each trace stored with its prompt, response and spans', async () => {
    const forwarder = await stack.forwarder({ grpcPort: 0, rootGraceMs: 0 });
    const plain = llmTraceSpans('grpc question?', 'grpc answer.');
    const gzipped = llmTraceSpans('grpc gzip question?', 'grpc gzip answer.');
    const first = await grpcExport(grpcAddress(forwarder), protoBody(plain.spans));
    expect(first).toEqual({ ok: true, response: Buffer.alloc(0) }); // nothing refused
    const second = await grpcExport(grpcAddress(forwarder), protoBody(gzipped.spans), { gzip: true });
    expect(second.ok).toBe(true);
    await waitFor(() => forwarder.stats().pipeline.exportedTraces === 2, 'both traces delivered');
    for (const [{ traceId }, prompt, response] of [
      [plain, 'grpc question?', 'grpc answer.'],
      [gzipped, 'grpc gzip question?', 'grpc gzip answer.'],
    ] as const) {
      const trace = await stack.service.client.traces.get(stack.applicationId, traceId);
      expect({
        prompt: trace.prompt,
        response: trace.response,
        model: trace.model,
        spans: trace.spanCount,
      }).toEqual({ prompt, response, model: 'gpt-4o-mini', spans: 3 });
    }
    expect(forwarder.stats().grpcResponses).toEqual({ [`${TRACES} OK`]: 2 });
    const metrics = await (await fetch(`${forwarder.url}/metrics`)).text();
    expect(metrics).toContain(`aqm_forwarder_grpc_responses_total{method="${TRACES}",code="OK"} 2`);
  });

  it('answers partial_success counting spans without valid ids, and keeps the rest', async () => {
    const forwarder = await stack.forwarder({ grpcPort: 0, rootGraceMs: 0 });
    const { traceId, spans } = llmTraceSpans('partial grpc?', 'partial grpc.');
    const first = spans[0] as ReadableSpan;
    const bad = [
      withIds(first, '00000000000000000000000000000000', first.spanContext().spanId),
      withIds(first, first.spanContext().traceId, '0000000000000000'),
    ];
    const answer = await grpcExport(grpcAddress(forwarder), protoBody([...spans, ...bad]));
    expect(answer.ok).toBe(true);
    const partial = answer.ok ? partialSuccess(answer.response) : undefined;
    expect(partial?.rejected).toBe(2);
    expect(partial?.errorMessage).toMatch(/2 span\(s\) without a valid trace id/);
    await waitFor(() => forwarder.stats().pipeline.exportedTraces === 1, 'the valid trace delivered');
    expect((await stack.service.client.traces.get(stack.applicationId, traceId)).spanCount).toBe(3);
    expect(forwarder.stats()).toMatchObject({ receivedSpans: 5, rejectedSpans: 2 });
  });

  it('refuses malformed requests (INVALID_ARGUMENT) and oversize ones (RESOURCE_EXHAUSTED), plain or gzip', async () => {
    const forwarder = await stack.forwarder({ grpcPort: 0, maxBodyBytes: 64 * 1024 });
    const address = grpcAddress(forwarder);
    const garbage = Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]);
    for (const method of [TRACES, LOGS]) {
      const answer = await grpcExport(address, garbage, { method });
      expect(answer.ok).toBe(false);
      if (answer.ok) continue;
      expect(answer.error.code).toBe(status.INVALID_ARGUMENT);
      expect(answer.error.details).toMatch(/^The body is not a valid OTLP protobuf export request: /);
    }
    // Past a decode limit (more resource entries than DECODE_LIMITS.resources): refused before decoding.
    const manyResources = Buffer.concat(Array.from({ length: 1025 }, () => Buffer.from([0x0a, 0x00])));
    const limited = await grpcExport(address, manyResources);
    expect(limited.ok || limited.error.code).toBe(status.INVALID_ARGUMENT);
    expect(limited.ok || limited.error.details).toMatch(/more than 1024 resource entries/);

    // grpc-js refuses a message past grpc.max_receive_message_length (set from maxBodyBytes) on the
    // wire, and a gzip message once it inflates past it, before the forwarder's handler runs.
    const oversize = await grpcExport(address, Buffer.alloc(64 * 1024 + 1));
    expect(oversize.ok || oversize.error.code).toBe(status.RESOURCE_EXHAUSTED);
    const bomb = Buffer.alloc(16 * 1024 * 1024);
    expect(gzipSync(bomb).length).toBeLessThan(64 * 1024);
    const inflated = await grpcExport(address, bomb, { gzip: true });
    expect(inflated.ok || inflated.error.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(inflated.ok || inflated.error.details).toMatch(/decompresses to a size larger than 65536/);
    // The empty request is a valid one.
    expect((await grpcExport(address, Buffer.alloc(0), { method: LOGS })).ok).toBe(true);
    expect(forwarder.stats()).toMatchObject({ receivedSpans: 0, receivedLogRecords: 0 });
    expect(forwarder.stats().grpcResponses).toEqual({
      [`${TRACES} INVALID_ARGUMENT`]: 2,
      [`${LOGS} INVALID_ARGUMENT`]: 1,
      [`${LOGS} OK`]: 1,
    });
  });

  it('checks ingest tokens in the authorization (or x-api-key) metadata: UNAUTHENTICATED otherwise', async () => {
    const token = `ingest-${randomUUID()}`;
    const forwarder = await stack.forwarder({ grpcPort: 0, ingestTokens: [token], rootGraceMs: 0 });
    const address = grpcAddress(forwarder);
    const body = protoBody(llmTraceSpans('grpc auth?', 'grpc auth.').spans);
    const refusals = [
      await grpcExport(address, body),
      await grpcExport(address, body, { token: `${token}x` }),
      await grpcExport(address, body, { metadata: { 'x-api-key': 'nope' }, method: LOGS }),
    ];
    for (const answer of refusals) {
      expect(answer.ok || answer.error.code).toBe(status.UNAUTHENTICATED);
      expect(answer.ok || answer.error.details).toMatch(/Missing or unknown ingest token/);
      expect(answer.ok || answer.error.details).not.toContain(stack.service.apiKey);
    }
    expect(forwarder.stats().receivedSpans).toBe(0);
    expect(forwarder.stats().grpcResponses).toEqual({
      [`${TRACES} UNAUTHENTICATED`]: 2,
      [`${LOGS} UNAUTHENTICATED`]: 1,
    });
    expect((await grpcExport(address, body, { token })).ok).toBe(true);
    expect((await grpcExport(address, body, { metadata: { 'x-api-key': token } })).ok).toBe(true);
    expect(forwarder.stats().receivedSpans).toBe(6);
  });

  it('refuses a sender without a token before reading its message: UNAUTHENTICATED, not the size error', async () => {
    const token = `ingest-${randomUUID()}`;
    const forwarder = await stack.forwarder({ grpcPort: 0, ingestTokens: [token], maxBodyBytes: 64 * 1024 });
    const address = grpcAddress(forwarder);
    // Four times maxBodyBytes: reading it would have been refused RESOURCE_EXHAUSTED by grpc-js.
    const large = Buffer.alloc(256 * 1024);
    const refused = await grpcExport(address, large);
    expect(refused.ok || refused.error.code).toBe(status.UNAUTHENTICATED);
    const withToken = await grpcExport(address, large, { token });
    expect(withToken.ok || withToken.error.code).toBe(status.RESOURCE_EXHAUSTED);
  });

  it('ends a call whose message never arrives whole within receiveTimeoutMs (DEADLINE_EXCEEDED)', async () => {
    const forwarder = await stack.forwarder({ grpcPort: 0, receiveTimeoutMs: 300 });
    // A raw HTTP/2 stream: a gRPC frame announcing 1000 bytes, 10 of them sent, and never the rest.
    const session = connect(`http://127.0.0.1:${forwarder.grpcPort}`);
    try {
      const stream = session.request({
        ':method': 'POST',
        ':path': TRACES,
        'content-type': 'application/grpc',
        te: 'trailers',
      });
      const frame = Buffer.alloc(5 + 10);
      frame.writeUInt32BE(1000, 1);
      stream.write(frame);
      // Nothing was answered yet: the status comes trailers-only, in the response headers.
      const [trailers] = (await within(once(stream, 'response'), 10_000, 'the status')) as [
        Record<string, string>,
      ];
      expect(trailers['grpc-status']).toBe(String(status.DEADLINE_EXCEEDED));
      expect(decodeURIComponent(trailers['grpc-message'] ?? '')).toBe(
        'The request was not received whole within 300 ms (receiveTimeoutMs)',
      );
      stream.destroy();
    } finally {
      session.destroy();
    }
    expect(forwarder.stats().grpcResponses).toEqual({ [`${TRACES} DEADLINE_EXCEEDED`]: 1 });
    // A whole call is answered as before.
    expect((await grpcExport(grpcAddress(forwarder), Buffer.alloc(0))).ok).toBe(true);
  });

  it('is ready (/readyz) once both receivers serve, and closes the gRPC one on close()', async () => {
    const forwarder = await stack.forwarder({ grpcPort: 0 });
    // startForwarder resolves once both listen: a gRPC call made right away is answered.
    expect((await fetch(`${forwarder.url}/readyz`)).status).toBe(200);
    expect((await grpcExport(grpcAddress(forwarder), Buffer.alloc(0))).ok).toBe(true);
    await forwarder.close();
    const after = await grpcExport(grpcAddress(forwarder), Buffer.alloc(0));
    expect(after.ok || after.error.code).toBe(status.UNAVAILABLE);
  });
});

describe('when the service does not keep up', () => {
  it('answers UNAVAILABLE with a RetryInfo once the queue is full, so OTLP exporters back off', async () => {
    const hanging = await startForwarderBeforeHangingService({ grpcPort: 0, maxQueueTraces: 2 });
    const { forwarder } = hanging;
    try {
      const address = grpcAddress(forwarder);
      for (let i = 0; i < 2; i += 1) {
        const spans = llmTraceSpans(`held ${i}?`, `held ${i}.`).spans;
        expect((await grpcExport(address, protoBody(spans))).ok).toBe(true);
      }
      await waitFor(() => forwarder.stats().pipeline.queuedTraces === 2, 'two traces held');
      const refused = await grpcExport(address, protoBody(llmTraceSpans('third?', 'third.').spans));
      expect(refused.ok).toBe(false);
      if (refused.ok) return;
      expect(refused.error.code).toBe(status.UNAVAILABLE);
      expect(refused.error.details).toMatch(/queue is full/);
      expect(statusDetails(refused.error)).toEqual({
        code: status.UNAVAILABLE,
        message: refused.error.details,
        retryDelayMs: 5000,
        typeUrls: ['type.googleapis.com/google.rpc.RetryInfo'],
      });
      expect(forwarder.stats()).toMatchObject({ refusedQueueFull: 1, receivedSpans: 6 });
      expect(forwarder.stats().pipeline.droppedTraces.total).toBe(0);
    } finally {
      await hanging.close();
    }
  });
});
