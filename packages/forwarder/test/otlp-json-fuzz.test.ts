import { emptyStats, type TracePipeline } from '@aqm/otel/pipeline';
import { diag } from '@opentelemetry/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Admission } from '../src/admission.js';
import type { ApplicationRouter } from '../src/application-router.js';
import { OtlpIngest } from '../src/ingest.js';
import type { OtlpDecodeError } from '../src/otlp/decode-error.js';
import { decodeRequest, type OtlpSignal } from '../src/otlp/otlp-codec.js';
import type { PipelineFeed } from '../src/pipeline-feed.js';

// Odd values anywhere in an OTLP/JSON request: decoding and ingesting it either succeeds or is a
// 400/413 (OtlpDecodeError). Any other error would be the forwarder's 500 "Internal error".

const nothing = () => undefined;
const pipeline = { stats: () => emptyStats() } as unknown as TracePipeline;
const router = {
  destination: () => ({ kind: 'pipeline', pipeline }),
  remember: nothing,
} as unknown as ApplicationRouter;
const feed = { addSpans: nothing, holdRoots: nothing, addLogs: nothing } as unknown as PipelineFeed;
const limits = {
  maxQueueTraces: 1e9,
  maxQueueBytes: 1e12,
  maxOpenTraces: 1e9,
  maxTotalQueueBytes: 1e12,
  maxDiskBytes: undefined,
};

/** Values that break naive readers: methods replaced, nesting, numbers out of range, odd strings. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    { toString: 1 },
    { valueOf: {} },
    { toString: 1, valueOf: 1 },
    { low: { toString: 1 }, high: 1 },
    { low: 1, high: [] },
    { __proto__: { stringValue: 'x' } },
    JSON.parse('{"__proto__": {"stringValue": 1}}'),
    Array.from({ length: 1 }, () => [[[[[[[[[[[]]]]]]]]]]]),
    '1e400',
    '-0',
    '18446744073709551616',
    '99999999999999999999',
    'NaN',
    '',
  ),
);
const anyValueArb = (depth: number): fc.Arbitrary<unknown> =>
  fc.oneof(
    oddValue,
    fc.record(
      {
        stringValue: oddValue,
        boolValue: oddValue,
        intValue: oddValue,
        doubleValue: oddValue,
        bytesValue: oddValue,
        arrayValue:
          depth > 0 ? fc.record({ values: fc.array(anyValueArb(depth - 1), { maxLength: 3 }) }) : oddValue,
        kvlistValue:
          depth > 0 ? fc.record({ values: fc.array(keyValueArb(depth - 1), { maxLength: 3 }) }) : oddValue,
      },
      { requiredKeys: [] },
    ),
  );
const keyValueArb = (depth: number): fc.Arbitrary<unknown> =>
  fc.oneof(
    oddValue,
    fc.record({ key: fc.oneof(fc.string(), oddValue), value: anyValueArb(depth) }, { requiredKeys: [] }),
  );
const attributes = fc.oneof(oddValue, fc.array(keyValueArb(2), { maxLength: 4 }));
const id = (bytes: number) =>
  fc.oneof(oddValue, fc.constant('ab'.repeat(bytes)), fc.constant(Buffer.alloc(bytes, 7).toString('base64')));
const item = fc.record(
  {
    traceId: id(16),
    spanId: id(8),
    parentSpanId: id(8),
    name: oddValue,
    kind: oddValue,
    startTimeUnixNano: oddValue,
    endTimeUnixNano: oddValue,
    attributes,
    events: fc.oneof(
      oddValue,
      fc.array(
        fc.oneof(
          oddValue,
          fc.record({ name: oddValue, timeUnixNano: oddValue, attributes }, { requiredKeys: [] }),
        ),
        { maxLength: 2 },
      ),
    ),
    status: fc.oneof(oddValue, fc.record({ code: oddValue, message: oddValue }, { requiredKeys: [] })),
    body: anyValueArb(2),
    eventName: fc.oneof(oddValue, fc.constant('gen_ai.choice')),
  },
  { requiredKeys: [] },
);
const scope = (itemsKey: string) =>
  fc.oneof(
    oddValue,
    fc.record(
      {
        scope: fc.oneof(
          oddValue,
          fc.record({ name: oddValue, version: oddValue, attributes }, { requiredKeys: [] }),
        ),
        [itemsKey]: fc.oneof(oddValue, fc.array(fc.oneof(oddValue, item), { maxLength: 3 })),
      },
      { requiredKeys: [] },
    ),
  );
const request = (signal: OtlpSignal) => {
  const [listKey, scopesKey, itemsKey] =
    signal === 'traces'
      ? ['resourceSpans', 'scopeSpans', 'spans']
      : ['resourceLogs', 'scopeLogs', 'logRecords'];
  const resource = fc.oneof(
    oddValue,
    fc.record(
      {
        resource: fc.oneof(oddValue, fc.record({ attributes }, { requiredKeys: [] })),
        [scopesKey]: fc.oneof(oddValue, fc.array(scope(itemsKey), { maxLength: 2 })),
      },
      { requiredKeys: [] },
    ),
  );
  return fc.oneof(
    oddValue,
    fc.record({ [listKey]: fc.oneof(oddValue, fc.array(resource, { maxLength: 2 })) }),
  );
};

async function ingestBody(signal: OtlpSignal, format: 'json' | 'protobuf', body: Buffer): Promise<void> {
  const admission = new Admission(limits, () => [pipeline]);
  const ingest = new OtlpIngest({ router, feed, admission, lookupWaitMs: 0, logger: diag });
  try {
    const items = decodeRequest(signal, format, body);
    if (signal === 'traces') await ingest.traces(items, body.length);
    else await ingest.logs(items, body.length);
  } catch (error) {
    // By name, so that this test runs against the code before OtlpDecodeError had a status too.
    if (!(error instanceof Error) || error.name !== 'OtlpDecodeError') throw error;
    expect([400, 413]).toContain((error as OtlpDecodeError).statusCode ?? 400);
  }
}

const ingestJson = (signal: OtlpSignal, body: unknown) =>
  ingestBody(signal, 'json', Buffer.from(JSON.stringify(body) ?? 'null'));

describe('OTLP/JSON with odd values anywhere (issue 26: never a 500)', () => {
  it.each(['traces', 'logs'] as const)(
    'decodes and ingests %s or refuses them with OtlpDecodeError',
    async (signal) => {
      await fc.assert(
        fc.asyncProperty(request(signal), (body) => ingestJson(signal, body)),
        { numRuns: 2000, seed: 26 },
      );
    },
  );

  it('takes random protobuf bytes as a request or refuses them with OtlpDecodeError', async () => {
    for (const signal of ['traces', 'logs'] as const) {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), (bytes) =>
          ingestBody(signal, 'protobuf', Buffer.from(bytes)),
        ),
        { numRuns: 2000, seed: 26 },
      );
    }
  });

  it('reads a time that looks like a Long but holds an object without calling its methods', async () => {
    const body = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: '01'.repeat(16),
                  spanId: '02'.repeat(8),
                  startTimeUnixNano: { low: { toString: 1 }, high: 1 },
                },
              ],
            },
          ],
        },
      ],
    };
    await expect(ingestJson('traces', body)).resolves.toBeUndefined();
  });
});
