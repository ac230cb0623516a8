import { describe, expect, it } from 'vitest';
import { HeldTraces } from '../src/export/held-traces.js';
import { createQueuedTrace } from '../src/export/queued-trace.js';

const ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/** A queue entry the way the sender makes one: the UTF-8 length measured first. */
function queued(traceId: string, json: string, sequence: number) {
  return createQueuedTrace(traceId, json, Buffer.byteLength(json, 'utf8'), sequence);
}

describe('a queued trace', () => {
  it('holds its JSON as UTF-8 in memory of exactly its size, also when small', () => {
    // A small record must not keep a chunk of Node's shared Buffer pool alive while it is queued.
    for (const json of [
      '{"prompt":"hi"}',
      JSON.stringify({ prompt: 'Grüße 東京 🚀' }),
      `"${'x'.repeat(6000)}"`,
    ]) {
      const entry = queued(ID, json, 1);
      expect(entry.body.toString('utf8')).toBe(json);
      expect(entry.bytes).toBe(Buffer.byteLength(json, 'utf8'));
      expect(entry.body.byteLength).toBe(entry.bytes);
      expect(entry.body.byteOffset).toBe(0);
      expect(entry.body.buffer.byteLength).toBe(entry.bytes);
    }
  });

  it('keeps the held byte count right when a record is replaced by a smaller one', () => {
    const held = new HeldTraces();
    const first = queued(ID, JSON.stringify({ prompt: 'é'.repeat(100) }), 1);
    const second = queued(ID.replace('4', '5'), '{"prompt":"b"}', 2);
    held.add(first);
    held.add(second);
    expect(held.bytes).toBe(first.bytes + second.bytes);
    const smaller = JSON.stringify({ prompt: 'é' });
    held.resize(first, smaller);
    expect(first.body.toString('utf8')).toBe(smaller);
    expect(first.body.buffer.byteLength).toBe(first.bytes);
    expect(held.bytes).toBe(Buffer.byteLength(smaller) + second.bytes);
    held.settle([first, second], 'delivered');
    expect(held.bytes).toBe(0);
  });
});
