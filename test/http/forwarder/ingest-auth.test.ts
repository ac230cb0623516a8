import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../otel/helpers/wait.js';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import { startForwarderBeforeHangingService } from './helpers/hanging-service.js';
import { llmTraceSpans, protoBody } from './helpers/otlp-bodies.js';
import { rawRequest } from './helpers/raw-request.js';

let stack: ForwarderStack;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-auth');
});
afterAll(async () => {
  await stack?.close();
});

const PROTOBUF = { 'content-type': 'application/x-protobuf' };
/** Spellings of the ingest paths that a router may match, or not, but never without a token. */
const VARIANTS = [
  '/v1/traces',
  '/v1/%74races',
  '/v1/%6Cogs',
  '/v1/%6cogs',
  '/%76%31/%74%72%61%63%65%73',
  '/v1/traces?x=1',
  '/v1/%74races?x=1',
  '/v1/traces/',
  '//v1/traces',
  '/v1//traces',
  '/V1/TRACES',
  '/v1/Traces',
  '/v1/./traces',
  '/v2/../v1/traces',
  '/v1/traces%2F',
  '/v1/traces;x',
];

describe('ingest tokens, decided on the route the router matched', () => {
  it('refuses every spelling of an ingest path without a token (401), and delivers nothing', async () => {
    const token = `ingest-${randomUUID()}`;
    const forwarder = await stack.forwarder({ ingestTokens: [token], rootGraceMs: 0 });
    const body = protoBody(llmTraceSpans('encoded question?', 'encoded answer.').spans);
    for (const path of VARIANTS) {
      const answer = await rawRequest(forwarder.url, 'POST', path, { headers: PROTOBUF, body });
      expect({ path, status: answer.status }).toEqual({ path, status: 401 });
      expect(answer.headers['www-authenticate']).toBe('Bearer');
    }
    const wrong = await rawRequest(forwarder.url, 'POST', '/v1/%74races', {
      headers: { ...PROTOBUF, authorization: `Bearer ${token}x` },
      body,
    });
    expect(wrong.status).toBe(401);
    expect(forwarder.stats().receivedSpans).toBe(0);
    // Other methods and unknown paths too: no route is told apart from another without a token.
    for (const [method, path] of [
      ['GET', '/v1/traces'],
      ['POST', '/metrics'],
      ['POST', '/healthz'],
      ['GET', '/nowhere'],
      ['DELETE', '/v1/traces'],
    ] as const) {
      expect({ method, path, status: (await rawRequest(forwarder.url, method, path)).status }).toEqual({
        method,
        path,
        status: 401,
      });
    }

    // With the token, the encoded path is the ingest route it decodes to; an unknown path is a 404.
    const authorized = { ...PROTOBUF, authorization: `Bearer ${token}` };
    expect(
      (await rawRequest(forwarder.url, 'POST', '/v1/%74races', { headers: authorized, body })).status,
    ).toBe(200);
    expect(forwarder.stats().receivedSpans).toBe(3);
    expect((await rawRequest(forwarder.url, 'GET', '/nowhere', { headers: authorized })).status).toBe(404);
  });

  it('keeps health, readiness and metrics open without a token', async () => {
    const forwarder = await stack.forwarder({ ingestTokens: [`ingest-${randomUUID()}`] });
    for (const path of ['/healthz', '/readyz', '/metrics', '/%68ealthz', '/metrics?x=1']) {
      expect({ path, status: (await rawRequest(forwarder.url, 'GET', path)).status }).toEqual({
        path,
        status: 200,
      });
    }
    expect((await rawRequest(forwarder.url, 'HEAD', '/healthz')).status).toBe(200);
  });
});

describe('the queue-full answer, decided on the matched route', () => {
  it('answers 503 to an encoded ingest path once the queue is full, as to the plain one', async () => {
    const hanging = await startForwarderBeforeHangingService({ maxQueueTraces: 1 });
    const { forwarder } = hanging;
    try {
      const first = protoBody(llmTraceSpans('held?', 'held.').spans);
      expect(
        (await rawRequest(forwarder.url, 'POST', '/v1/traces', { headers: PROTOBUF, body: first })).status,
      ).toBe(200);
      await waitFor(() => forwarder.stats().pipeline.queuedTraces === 1, 'one trace held');
      const body = protoBody(llmTraceSpans('more?', 'more.').spans);
      for (const path of ['/v1/%74races', '/v1/%6Cogs', '/v1/traces?x=1']) {
        const answer = await rawRequest(forwarder.url, 'POST', path, { headers: PROTOBUF, body });
        expect({ path, status: answer.status }).toEqual({ path, status: 503 });
        expect(answer.headers['retry-after']).toBe('5');
      }
      expect(forwarder.stats()).toMatchObject({ refusedQueueFull: 3, receivedSpans: 3 });
    } finally {
      await hanging.close();
    }
  });
});
