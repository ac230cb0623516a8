import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { neverEndingBody } from '../server/helpers.js';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import { jsonBody, llmTraceSpans, postOtlp } from './helpers/otlp-bodies.js';

let stack: ForwarderStack;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-slow');
});
afterAll(async () => {
  await stack?.close();
});

describe('a sender that never finishes its request body (slowloris)', () => {
  it('is answered 408 with a google.rpc.Status and its connection closed; others are still served', async () => {
    const forwarder = await stack.forwarder({ receiveTimeoutMs: 300 });
    const answer = await neverEndingBody(
      Number(new URL(forwarder.url).port),
      'POST /v1/traces HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      code: 4,
      message: 'The request was not received in time (receiveTimeoutMs)',
    });
    const { spans } = llmTraceSpans('slow prompt', 'slow answer');
    const res = await postOtlp(forwarder.url, jsonBody(spans), { contentType: 'application/json' });
    expect(res.status).toBe(200);
    expect(forwarder.stats().receivedSpans).toBe(spans.length);
  });

  it('refuses a receiveTimeoutMs that is not a positive integer, naming it', async () => {
    await expect(stack.forwarder({ receiveTimeoutMs: 0 })).rejects.toThrow(/receiveTimeoutMs/);
  });
});
