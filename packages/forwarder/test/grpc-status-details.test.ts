import protobuf from 'protobufjs/light.js';
import { describe, expect, it } from 'vitest';
import { RETRY_INFO_TYPE_URL, retryInfoStatus } from '../src/grpc/status-details.js';

// An independent decoder of what the hand-written encoder writes: the messages as protobufjs reads
// them from their .proto definitions (google/rpc/status.proto, error_details.proto, any, duration).
const root = protobuf.Root.fromJSON({
  nested: {
    google: {
      nested: {
        rpc: {
          nested: {
            Status: {
              fields: {
                code: { type: 'int32', id: 1 },
                message: { type: 'string', id: 2 },
                details: { rule: 'repeated', type: 'google.protobuf.Any', id: 3 },
              },
            },
            RetryInfo: { fields: { retryDelay: { type: 'google.protobuf.Duration', id: 1 } } },
          },
        },
        protobuf: {
          nested: {
            Any: { fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } },
            Duration: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
          },
        },
      },
    },
  },
});
const Status = root.lookupType('google.rpc.Status');
const RetryInfo = root.lookupType('google.rpc.RetryInfo');

function decode(bytes: Buffer) {
  const status = Status.toObject(Status.decode(bytes), { longs: Number, defaults: true }) as {
    code: number;
    message: string;
    details: { type_url: string; value: Uint8Array }[];
  };
  const [detail] = status.details;
  const retryInfo =
    detail === undefined
      ? undefined
      : RetryInfo.toObject(RetryInfo.decode(detail.value), { longs: Number, defaults: true });
  return {
    code: status.code,
    message: status.message,
    typeUrls: status.details.map((d) => d.type_url),
    retryInfo,
  };
}

describe('retryInfoStatus', () => {
  it('writes a google.rpc.Status with one Any of google.rpc.RetryInfo holding the delay', () => {
    expect(decode(retryInfoStatus(14, 'The queue is full', 5000))).toEqual({
      code: 14,
      message: 'The queue is full',
      typeUrls: [RETRY_INFO_TYPE_URL],
      retryInfo: { retryDelay: { seconds: 5, nanos: 0 } },
    });
  });

  it('splits a delay into seconds and nanos, and writes long and non-ASCII messages', () => {
    const message = `Überlastet: ${'x'.repeat(300)}`;
    expect(decode(retryInfoStatus(8, message, 3_600_250))).toEqual({
      code: 8,
      message,
      typeUrls: [RETRY_INFO_TYPE_URL],
      retryInfo: { retryDelay: { seconds: 3600, nanos: 250_000_000 } },
    });
    // A zero delay is still a RetryInfo (an explicit "retry at once"), its Duration empty.
    expect(decode(retryInfoStatus(14, '', 0))).toEqual({
      code: 14,
      message: '',
      typeUrls: [RETRY_INFO_TYPE_URL],
      retryInfo: { retryDelay: { seconds: 0, nanos: 0 } },
    });
  });

  it('is the few bytes expected', () => {
    // code 14, no message, Any { type_url, value: RetryInfo { Duration { seconds: 5 } } }.
    const bytes = retryInfoStatus(14, '', 5000);
    const typeUrl = Buffer.from(RETRY_INFO_TYPE_URL);
    const retryInfo = Buffer.from([0x0a, 0x02, 0x08, 0x05]);
    const any = Buffer.concat([
      Buffer.from([0x0a, typeUrl.length]),
      typeUrl,
      Buffer.from([0x12, 4]),
      retryInfo,
    ]);
    expect(bytes).toEqual(Buffer.concat([Buffer.from([0x08, 14, 0x1a, any.length]), any]));
  });
});
