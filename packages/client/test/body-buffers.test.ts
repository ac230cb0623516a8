import { describe, expect, it } from 'vitest';
import { BodyBuffers } from '../src/body-buffers.js';

describe('BodyBuffers', () => {
  it('hands back the memory of a released body for the next one that fits', () => {
    const bodies = new BodyBuffers();
    const first = bodies.take(600_000);
    expect(first.byteLength).toBe(600_000);
    bodies.release(first);
    expect(bodies.freeCount).toBe(1);
    const second = bodies.take(500_000);
    expect(second.byteLength).toBe(500_000);
    expect(second.buffer).toBe(first.buffer);
    expect(bodies.freeCount).toBe(0);
  });

  it('allocates anew while a body is out (not released: in flight, or its request failed)', () => {
    const bodies = new BodyBuffers();
    const inFlight = bodies.take(100_000);
    const other = bodies.take(100_000);
    expect(other.buffer).not.toBe(inFlight.buffer);
  });

  it('rounds the memory up, so a slightly larger next body reuses it', () => {
    const bodies = new BodyBuffers();
    const first = bodies.take(70_000);
    expect(first.buffer.byteLength).toBe(128 * 1024);
    bodies.release(first);
    expect(bodies.take(120_000).buffer).toBe(first.buffer);
  });

  it('keeps at most two buffers, each at most 2 MiB, and only its own', () => {
    const bodies = new BodyBuffers();
    const out = [bodies.take(1000), bodies.take(1000), bodies.take(1000)];
    for (const body of out) bodies.release(body);
    expect(bodies.freeCount).toBe(2);

    const fresh = new BodyBuffers();
    fresh.release(Buffer.alloc(100_000)); // not one of its own
    fresh.release(Buffer.from('{"traces":[]}')); // a slice of Node's shared pool
    const huge = fresh.take(3 * 1024 * 1024);
    expect(huge.byteLength).toBe(3 * 1024 * 1024);
    fresh.release(huge);
    expect(fresh.freeCount).toBe(0);
  });

  it('does not keep the same buffer twice when released twice', () => {
    const bodies = new BodyBuffers();
    const body = bodies.take(10_000);
    bodies.release(body);
    bodies.release(body);
    expect(bodies.freeCount).toBe(1);
  });
});
