import { describe, expect, it } from 'vitest';
import { ByteCollector, truncateUtf8 } from '../src/byte-collector.js';
import { sseEvents } from '../src/sse.js';

describe('sseEvents', () => {
  it('joins the data lines of an event with \\n and removes one leading space', () => {
    expect(sseEvents('data: a\ndata:  b\ndata:c\n\n')).toEqual(['a\n b\nc']);
  });

  it('accepts CRLF, LF and CR line ends, and an empty data field', () => {
    expect(sseEvents('data: one\r\n\r\ndata: two\r\rdata\n\n')).toEqual(['one', 'two', '']);
  });

  it('skips comments and events without data, and ignores other fields', () => {
    expect(sseEvents(': ping\n\nevent: x\nid: 1\nretry: 5\n\ndata: y\nevent: z\n\n')).toEqual(['y']);
  });

  it('keeps an event cut off at the end, and ignores lines that only look like data', () => {
    expect(sseEvents('database: no\ndata: cut')).toEqual(['cut']);
  });

  it('finds nothing in a body without data lines', () => {
    expect(sseEvents('hello world')).toEqual([]);
    expect(sseEvents('')).toEqual([]);
  });
});

describe('ByteCollector', () => {
  it('keeps chunks of every encoding up to the cap and says when it cut', () => {
    const collector = new ByteCollector(10);
    expect(collector.touched).toBe(false);
    collector.add('abc');
    collector.add(Buffer.from('def'));
    collector.add('6768', 'hex');
    collector.add(new Uint8Array([105, 106, 107, 108]));
    expect(collector.text()).toBe('abcdefghij');
    expect(collector.truncated).toBe(true);
    expect(collector.touched).toBe(true);
  });

  it('ignores what is not a chunk (a callback, null) and an unknown encoding falls back to UTF-8', () => {
    const collector = new ByteCollector(100);
    collector.add(() => {});
    collector.add(null);
    expect(collector.touched).toBe(false);
    collector.add('ü', 'not-an-encoding');
    expect(collector.text()).toBe('ü');
    expect(collector.truncated).toBe(false);
  });

  it('copies each chunk, so a buffer reused by the caller does not change what was kept', () => {
    const collector = new ByteCollector(100);
    const buffer = Buffer.from('first');
    collector.add(buffer);
    buffer.write('XXXXX');
    expect(collector.text()).toBe('first');
  });

  it('drops a character cut in half by the cap', () => {
    const collector = new ByteCollector(4);
    collector.add('ab€');
    expect(collector.text()).toBe('ab');
    expect(collector.truncated).toBe(true);
  });
});

describe('truncateUtf8', () => {
  it('leaves a text within the cap as it is', () => {
    expect(truncateUtf8('héllo', 6)).toEqual({ text: 'héllo', truncated: false });
  });

  it('cuts on a character boundary, counting UTF-8 bytes', () => {
    expect(truncateUtf8('héllo', 2)).toEqual({ text: 'h', truncated: true });
    expect(truncateUtf8('😀😀', 5)).toEqual({ text: '😀', truncated: true });
  });
});
