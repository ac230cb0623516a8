import { describe, expect, it } from 'vitest';
import { HeldTraces } from '../src/export/held-traces.js';
import { MAX_SHARED_BYTES, SLAB_BYTES, Utf8Slabs } from '../src/export/utf8-slabs.js';

const ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const idOf = (i: number) => i.toString(16).padStart(32, '0');

/** Holds `json` the way the sender does: its UTF-8 length measured first. */
function hold(held: HeldTraces, traceId: string, json: string, sequence: number) {
  return held.hold(traceId, json, Buffer.byteLength(json, 'utf8'), sequence);
}

describe('a queued trace', () => {
  it('holds its JSON as UTF-8: small records share a slab, a large one has memory of exactly its size', () => {
    const held = new HeldTraces();
    const small = [
      '{"prompt":"hi"}',
      JSON.stringify({ prompt: 'Grüße 東京 🚀' }),
      `"${'x'.repeat(6000)}"`,
    ].map((json, i) => [json, hold(held, idOf(i + 1), json, i + 1)] as const);
    for (const [json, entry] of small) {
      expect(entry.body.toString('utf8')).toBe(json);
      expect(entry.bytes).toBe(Buffer.byteLength(json, 'utf8'));
      expect(entry.body.byteLength).toBe(entry.bytes);
      expect(entry.body.buffer.byteLength).toBe(SLAB_BYTES);
    }
    // One after the other in the same slab.
    expect(small[1]![1].body.byteOffset).toBe(small[0]![1].body.byteOffset + small[0]![1].bytes);
    const largeJson = `"${'y'.repeat(MAX_SHARED_BYTES + 1)}"`;
    const large = hold(held, ID, largeJson, 4);
    expect(large.body.toString('utf8')).toBe(largeJson);
    expect(large.body.buffer.byteLength).toBe(large.bytes);
    expect(held.memoryBytes).toBe(held.bytes);
  });

  it('keeps the held byte count right when a record is replaced by a smaller one', () => {
    const held = new HeldTraces();
    const first = hold(held, ID, JSON.stringify({ prompt: 'é'.repeat(100) }), 1);
    const second = hold(held, ID.replace('4', '5'), '{"prompt":"b"}', 2);
    expect(held.bytes).toBe(first.bytes + second.bytes);
    const smaller = JSON.stringify({ prompt: 'é' });
    held.resize(first, smaller);
    expect(first.body.toString('utf8')).toBe(smaller);
    expect(first.body.buffer.byteLength).toBe(first.bytes);
    expect(first.slab).toBeUndefined();
    expect(held.bytes).toBe(Buffer.byteLength(smaller) + second.bytes);
    held.settle([first, second], 'delivered');
    expect(held.bytes).toBe(0);
    expect(held.memoryBytes).toBe(0);
  });

  it('counts what a slab keeps alive beyond its live records, whatever order they leave in', () => {
    const held = new HeldTraces();
    const json = `"${'z'.repeat(10_000 - 2)}"`; // 10,000 bytes: six fill a slab, the seventh starts the next
    const entries = Array.from({ length: 14 }, (_, i) => hold(held, idOf(i + 1), json, i + 1));
    const firstSlab = entries[0]!.slab;
    expect(entries.slice(0, 6).every((entry) => entry.slab === firstSlab)).toBe(true);
    expect(entries[6]!.slab).not.toBe(firstSlab);
    // The first slab is retired with its unused tail, which its six records keep alive.
    const tail = SLAB_BYTES - 6 * 10_000;
    expect(held.memoryBytes).toBe(held.bytes + 2 * tail);
    // Five of its six records delivered, one still held: the whole slab is still alive and counted.
    held.settle(entries.slice(0, 5), 'delivered');
    expect(held.bytes).toBe(9 * 10_000);
    expect(held.memoryBytes).toBe(held.bytes + (SLAB_BYTES - 10_000) + tail);
    // The last one goes: nothing of that slab is counted any more.
    held.settle([entries[5]!], 'delivered');
    expect(held.memoryBytes).toBe(held.bytes + tail);
    held.settle(entries, 'delivered');
    expect(held.bytes).toBe(0);
    expect(held.memoryBytes).toBe(0);
  });

  it('never writes into a retired slab, so the bytes of a released record stay as they were', () => {
    const slabs = new Utf8Slabs();
    const json = `"${'a'.repeat(20_000)}"`.slice(0, MAX_SHARED_BYTES);
    const first = slabs.encode(json, MAX_SHARED_BYTES);
    slabs.release(first.slab!, MAX_SHARED_BYTES);
    for (let i = 0; i < 8; i += 1) slabs.encode('b'.repeat(MAX_SHARED_BYTES), MAX_SHARED_BYTES);
    expect(first.body.toString('utf8')).toBe(json);
    expect(slabs.slackBytes).toBeGreaterThanOrEqual(0);
  });
});
