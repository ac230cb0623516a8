import { describe, expect, it } from 'vitest';
import {
  decodeSpillFile,
  encodeSpillFile as encodeParts,
  parseSpillFileName,
  spillFileName,
} from '../src/spill/spill-file.js';

const encodeSpillFile = (items: Parameters<typeof encodeParts>[0]) => Buffer.concat(encodeParts(items));

const records = [
  { traceId: 'a'.repeat(32), body: Buffer.from('{"traceId":"a","prompt":"héllo\\nworld"}') },
  { traceId: 'b'.repeat(32), body: Buffer.from('{"traceId":"b","prompt":"tab\\there"}') },
];

describe('spill file format', () => {
  it('reads back what it wrote, byte for byte', () => {
    const decoded = decodeSpillFile(encodeSpillFile(records));
    expect('records' in decoded).toBe(true);
    if (!('records' in decoded)) return;
    expect(decoded.records.map((r) => r.traceId)).toEqual(records.map((r) => r.traceId));
    expect(decoded.records.map((r) => r.body.toString())).toEqual(records.map((r) => r.body.toString()));
  });

  it('tells a torn, a changed and a foreign file from a whole one', () => {
    const whole = encodeSpillFile(records);
    expect(decodeSpillFile(whole.subarray(0, whole.length - 7))).toMatchObject({
      problem: expect.stringMatching(/torn/),
    });
    const changed = Buffer.from(whole);
    changed[changed.length - 5] = (changed[changed.length - 5] ?? 0) ^ 0x01;
    expect(decodeSpillFile(changed)).toEqual({ problem: 'checksum mismatch' });
    expect(decodeSpillFile(Buffer.from('AQMSPILL9 1 2 00000000\n{}'))).toMatchObject({
      problem: expect.stringMatching(/unknown format version/),
    });
    expect(decodeSpillFile(Buffer.alloc(0))).toMatchObject({ problem: expect.any(String) });
    expect(decodeSpillFile(Buffer.from('hello'))).toMatchObject({ problem: expect.any(String) });
  });

  it('names files so that sorting by name is oldest first, with their count and size', () => {
    const older = spillFileName(1_700_000_000_000, 'p1', 9, 100, 12345);
    const newer = spillFileName(1_700_000_000_001, 'p0', 1, 1, 10);
    expect([newer, older].sort()).toEqual([older, newer]);
    expect(parseSpillFileName(older)).toEqual({
      name: older,
      writtenAt: 1_700_000_000_000,
      traces: 100,
      bytes: 12345,
    });
    expect(parseSpillFileName('notes.txt')).toBeUndefined();
    expect(parseSpillFileName('x.aqmspill')).toBeUndefined();
  });
});
