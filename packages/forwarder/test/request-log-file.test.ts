import { describe, expect, it } from 'vitest';
import {
  decodeRequestLog,
  doneLine,
  parseRequestLogName,
  REQUEST_LOG_MAGIC,
  requestHeader,
  requestLogName,
} from '../src/request-log-file.js';

const entry = (body: Buffer) =>
  Buffer.concat([requestHeader('traces', 'protobuf', body), body, Buffer.from('\n')]);

describe('request log file', () => {
  it('reads back requests (binary bodies, newlines in them) and the traces named done', () => {
    const bodies = [Buffer.from([0x0a, 0x00, 0xff, 0x0a]), Buffer.from('{"resourceSpans":[]}\n')];
    const data = Buffer.concat([
      REQUEST_LOG_MAGIC,
      entry(bodies[0] as Buffer),
      doneLine(['a1', 'b2']),
      entry(bodies[1] as Buffer),
    ]);
    const log = decodeRequestLog(data);
    expect(log.requests.map((r) => r.body)).toEqual(bodies);
    expect(log.requests[0]).toMatchObject({ signal: 'traces', format: 'protobuf' });
    expect([...log.done]).toEqual(['a1', 'b2']);
  });

  it('stops at a request cut off by a kill, and at a body that changed', () => {
    const whole = entry(Buffer.from('first'));
    const torn = entry(Buffer.from('second request body'));
    const cut = decodeRequestLog(
      Buffer.concat([REQUEST_LOG_MAGIC, whole, torn.subarray(0, torn.length - 4)]),
    );
    expect(cut.requests.map((r) => r.body.toString())).toEqual(['first']);
    const changed = Buffer.from(torn);
    changed[changed.length - 3] = 0x21;
    expect(decodeRequestLog(Buffer.concat([REQUEST_LOG_MAGIC, whole, changed])).requests).toHaveLength(1);
    expect(decodeRequestLog(Buffer.from('not a log')).requests).toEqual([]);
  });

  it('names files by owner (pid in base 36) and sequence', () => {
    const ownerId = `${(4242).toString(36)}xdeadbeef`;
    expect(parseRequestLogName(requestLogName(ownerId, 7))).toEqual({ ownerId, pid: 4242, sequence: 7 });
    expect(parseRequestLogName('owner.json')).toBeUndefined();
  });
});
