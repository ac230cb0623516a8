import { describe, expect, it } from 'vitest';
import { HeldTraces } from '../src/export/held-traces.js';
import { createQueuedTrace, utf8Body } from '../src/export/queued-trace.js';
import { RecordSlabs } from '../src/export/record-slabs.js';

const ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const KiB = 1024;
const MiB = 1024 * KiB;
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/** A queue entry with its JSON in memory of its own. */
function queued(traceId: string, json: string, sequence: number) {
  return createQueuedTrace(traceId, utf8Body(json), sequence);
}

/** JSON of about `chars` characters. */
function jsonOf(chars: number, fill = 'x'): string {
  return JSON.stringify({ prompt: fill.repeat(chars) });
}

describe('RecordSlabs', () => {
  it('writes records one after another into a shared block, each exactly, none over another', () => {
    const slabs = new RecordSlabs(16 * KiB);
    const texts = [
      '{"prompt":"hi"}',
      JSON.stringify({ prompt: 'Grüße 東京 🚀' }),
      JSON.stringify({ prompt: 'lone \uD800 surrogate' }),
      jsonOf(1000),
    ];
    const bodies = texts.map((json) => slabs.encode(json, NO_LIMIT)!);
    bodies.forEach((body, i) => {
      expect(body.toString('utf8')).toBe(texts[i]);
      expect(body.byteLength).toBe(Buffer.byteLength(texts[i]!, 'utf8'));
      // One block of our own, never Node's shared pool.
      expect(body.buffer).toBe(bodies[0]!.buffer);
      expect(body.buffer.byteLength).toBe(16 * KiB);
    });
    for (let i = 1; i < bodies.length; i += 1) {
      expect(bodies[i]!.byteOffset).toBe(bodies[i - 1]!.byteOffset + bodies[i - 1]!.byteLength);
    }
  });

  it('keeps nothing of a record longer than the room left, and writes the next one in its place', () => {
    const slabs = new RecordSlabs(16 * KiB);
    const first = slabs.encode('{"a":1}', NO_LIMIT)!;
    const long = JSON.stringify({ prompt: 'é'.repeat(100) });
    const bytes = Buffer.byteLength(long, 'utf8');
    expect(slabs.encode(long, bytes - 1)).toBeUndefined();
    const next = slabs.encode(long, bytes)!;
    expect(next.toString('utf8')).toBe(long);
    expect(next.byteOffset).toBe(first.byteOffset + first.byteLength);
    expect(first.toString('utf8')).toBe('{"a":1}');
  });

  it('starts a new block when a record no longer fits, leaving the records in the old one intact', () => {
    const slabs = new RecordSlabs(16 * KiB);
    // Five of 3,014 bytes fill 15,070 of the 16,384; the sixth opens a block.
    const held = Array.from({ length: 6 }, (_, i) => jsonOf(3000, String(i)));
    const bodies = held.map((json) => slabs.encode(json, NO_LIMIT)!);
    expect(bodies[4]!.buffer).toBe(bodies[0]!.buffer);
    expect(bodies[5]!.buffer).not.toBe(bodies[0]!.buffer);
    expect(bodies[5]!.byteOffset).toBe(0);
    expect(bodies.map((body) => body.toString('utf8'))).toEqual(held);
    // Near a block's end the exact length decides: a record that fits the rest of the block goes there.
    const tail = slabs.encode('{}', NO_LIMIT)!;
    expect(tail.buffer).toBe(bodies[5]!.buffer);
  });

  it('refuses a record over the room also when it is measured first, near a block end', () => {
    const slabs = new RecordSlabs(16 * KiB);
    for (let i = 0; i < 5; i += 1) slabs.encode(jsonOf(3000), NO_LIMIT);
    const json = jsonOf(2000);
    expect(slabs.encode(json, Buffer.byteLength(json) - 1)).toBeUndefined();
  });

  it('gives a record of more characters than a quarter of a block memory of its exact size', () => {
    const slabs = new RecordSlabs(16 * KiB);
    const json = jsonOf(5000, 'é');
    const body = slabs.encode(json, NO_LIMIT)!;
    expect(body.toString('utf8')).toBe(json);
    expect(body.byteOffset).toBe(0);
    expect(body.buffer.byteLength).toBe(Buffer.byteLength(json, 'utf8'));
    expect(slabs.encode(json, body.byteLength - 1)).toBeUndefined();
  });

  it('sizes blocks at 1/64 of maxQueueBytes, between 16 and 256 KiB', () => {
    const blockOf = (maxQueueBytes: number) =>
      RecordSlabs.forQueueBytes(maxQueueBytes).encode('{}', NO_LIMIT)!.buffer.byteLength;
    expect(blockOf(512 * KiB)).toBe(16 * KiB);
    expect(blockOf(4 * MiB)).toBe(64 * KiB);
    expect(blockOf(32 * MiB)).toBe(256 * KiB);
    expect(blockOf(1024 * MiB)).toBe(256 * KiB);
  });
});

describe('a queued trace', () => {
  it('holds a record in memory of exactly its size when it is not in a block', () => {
    // A small record must not keep a chunk of Node's shared Buffer pool alive while it is queued.
    for (const json of ['{"prompt":"hi"}', JSON.stringify({ prompt: 'Grüße 東京 🚀' })]) {
      const entry = queued(ID, json, 1);
      expect(entry.body.toString('utf8')).toBe(json);
      expect(entry.bytes).toBe(Buffer.byteLength(json, 'utf8'));
      expect(entry.body.byteOffset).toBe(0);
      expect(entry.body.buffer.byteLength).toBe(entry.bytes);
    }
  });

  it('keeps the held byte count right when a record is replaced by a smaller one', () => {
    const held = new HeldTraces();
    const slabs = new RecordSlabs(16 * KiB);
    const firstJson = JSON.stringify({ prompt: 'é'.repeat(100) });
    const first = createQueuedTrace(ID, slabs.encode(firstJson, NO_LIMIT)!, 1);
    const second = createQueuedTrace(ID.replace('4', '5'), slabs.encode('{"prompt":"b"}', NO_LIMIT)!, 2);
    held.add(first);
    held.add(second);
    expect(held.bytes).toBe(first.bytes + second.bytes);
    const smaller = JSON.stringify({ prompt: 'é' });
    held.resize(first, smaller);
    expect(first.body.toString('utf8')).toBe(smaller);
    // A shrunk record leaves its block for memory of its own size.
    expect(first.body.buffer.byteLength).toBe(first.bytes);
    expect(second.body.toString('utf8')).toBe('{"prompt":"b"}');
    expect(held.bytes).toBe(Buffer.byteLength(smaller) + second.bytes);
    held.settle([first, second], 'delivered');
    expect(held.bytes).toBe(0);
  });
});
