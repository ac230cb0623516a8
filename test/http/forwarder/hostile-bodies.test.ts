import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import {
  emptyResourceSpans,
  jsonNestedArrays,
  jsonWithValue,
  manyAttributes,
} from './helpers/hostile-bodies.js';
import { jsonBody, llmTraceSpans, postOtlp } from './helpers/otlp-bodies.js';

let stack: ForwarderStack;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-hostile');
});
afterAll(async () => {
  await stack?.close();
});

const JSON_TYPE = { contentType: 'application/json' };

describe('hostile and malformed bodies (issue 26)', () => {
  it('refuses bodies past the decode limits with 413 naming the limit; others are still served', async () => {
    const forwarder = await stack.forwarder();
    // Refused at the check after its first MiB; the rest (under 1 MiB) is drained: a clean 413.
    const empty = await postOtlp(forwarder.url, emptyResourceSpans(1536 * 1024));
    expect(empty.status).toBe(413);
    expect(empty.headers.get('content-type')).toBe('application/x-protobuf');
    expect(empty.text).toContain('more than 1024 resource entries');
    expect(empty.text).toContain('DECODE_LIMITS.resources');
    // 8 MB: refused as well, the connection closed without reading the rest, as a body over
    // maxBodyBytes; the sender, still writing, sees the 413 or the closed connection.
    const large = await postOtlp(forwarder.url, emptyResourceSpans(8 * 1024 * 1024)).then(
      (answer) => String(answer.status),
      (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
    );
    expect(['413', 'EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET']).toContain(large);

    const attributes = await postOtlp(forwarder.url, manyAttributes(200_000));
    expect(attributes.status).toBe(413);
    expect(attributes.text).toContain('more than 131072 attributes');

    const deep = await postOtlp(forwarder.url, jsonNestedArrays(100_000), JSON_TYPE);
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.text)).toEqual({
      code: 3,
      message:
        'The request nests objects and arrays deeper than 128 levels, the limit (DECODE_LIMITS.jsonDepth)',
    });

    const { spans } = llmTraceSpans('after the hostile bodies', 'still served');
    const ok = await postOtlp(forwarder.url, jsonBody(spans), JSON_TYPE);
    expect(ok.status).toBe(200);
    expect(forwarder.stats().receivedSpans).toBe(spans.length);
  });

  it.each([
    [
      'an object with toString as stringValue',
      { stringValue: { toString: 1 } },
      'value.stringValue is not a string',
    ],
    [
      'an object as doubleValue',
      { doubleValue: { a: 1 } },
      'value.doubleValue is not a number or a numeric string',
    ],
    ['nested arrays as stringValue', { stringValue: [[[[[[['x']]]]]]] }, 'value.stringValue is not a string'],
  ])('answers %s with 400 naming where it is, never 500', async (_name, value, expected) => {
    const forwarder = await stack.forwarder();
    const answer = await postOtlp(forwarder.url, jsonWithValue(value), JSON_TYPE);
    expect(answer.status).toBe(400);
    const status = JSON.parse(answer.text) as { code: number; message: string };
    expect(status.code).toBe(3);
    expect(status.message).toContain(`resourceSpans[0].scopeSpans[0].spans[0].attributes[0].${expected}`);
    expect(forwarder.stats().receivedSpans).toBe(0);
  });
});
