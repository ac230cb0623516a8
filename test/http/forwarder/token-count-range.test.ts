import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../otel/helpers/wait.js';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import { postOtlp, protoBody } from './helpers/otlp-bodies.js';
import { keyValuesOf } from './helpers/recorded-otlp.js';

// A legal OTLP int64 token count (int64 max) is no count the service takes: the forwarder leaves
// it out and the record is stored with its prompt, response and other counts, from OTLP/JSON (the
// int64 as a decimal string) and from protobuf (a 64-bit integer on the wire) alike.

const INT64_MAX = 9223372036854775807n;

let stack: ForwarderStack;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-token-range');
});
afterAll(async () => {
  await stack?.close();
});

function chatAttributes(prompt: string, response: string) {
  return {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': 'gpt-4o-mini',
    'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: prompt }] }]),
    'gen_ai.output.messages': JSON.stringify([
      { role: 'assistant', parts: [{ type: 'text', content: response }] },
    ]),
    'gen_ai.usage.output_tokens': 7,
  };
}

/** OTLP/JSON of one chat span whose input count is int64 max, as a decimal string. */
function jsonRequest(prompt: string, response: string): { traceId: string; body: Buffer } {
  const traceId = randomBytes(16).toString('hex');
  const now = BigInt(Date.now()) * 1_000_000n;
  const attributes = [
    ...keyValuesOf(chatAttributes(prompt, response)),
    { key: 'gen_ai.usage.input_tokens', value: { intValue: INT64_MAX.toString() } },
  ];
  const span = {
    traceId,
    spanId: randomBytes(8).toString('hex'),
    name: 'chat gpt-4o-mini',
    kind: 3,
    startTimeUnixNano: now.toString(),
    endTimeUnixNano: (now + 5_000_000n).toString(),
    attributes,
    status: { code: 0 },
  };
  const request = {
    resourceSpans: [
      { resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'test' }, spans: [span] }] },
    ],
  };
  return { traceId, body: Buffer.from(JSON.stringify(request)) };
}

/**
 * Protobuf of a real SDK span whose input count is 2^63 as a JS number: the serializer writes it as
 * an int64 (saturated to int64 max), which the forwarder decodes as a 64-bit Long.
 */
function protoRequest(prompt: string, response: string): { traceId: string; body: Buffer } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const span = provider.getTracer('test').startSpan(
    'chat gpt-4o-mini',
    {
      kind: SpanKind.CLIENT,
      attributes: { ...chatAttributes(prompt, response), 'gen_ai.usage.input_tokens': 2 ** 63 },
    },
    ROOT_CONTEXT,
  );
  span.end();
  return {
    traceId: span.spanContext().traceId,
    body: protoBody(exporter.getFinishedSpans()),
  };
}

describe('an int64 max token count through the forwarder', () => {
  it.each([
    ['OTLP/JSON', jsonRequest, 'application/json'],
    ['protobuf', protoRequest, 'application/x-protobuf'],
  ] as const)(
    '%s: the record is stored without that count, with its prompt and response',
    async (_name, make, contentType) => {
      const forwarder = await stack.forwarder({ rootGraceMs: 0 });
      const { traceId, body } = make('How many tokens?', 'Too many to count.');
      expect((await postOtlp(forwarder.url, body, { contentType })).status).toBe(200);
      await waitFor(() => forwarder.stats().pipeline.exportedTraces === 1, 'the trace delivered');
      const stored = await stack.service.client.traces.get(stack.applicationId, traceId);
      expect(stored.prompt).toBe('How many tokens?');
      expect(stored.response).toBe('Too many to count.');
      expect(stored.usage).toEqual({ outputTokens: 7 });
    },
  );
});
