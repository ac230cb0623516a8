import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FlushTarget, flushBeforeExit } from '../src/setup/flush-before-exit.js';

function fakeTarget(held: { queuedTraces: number; openTraces: number }, flush: () => Promise<void>) {
  const calls: string[] = [];
  const target: FlushTarget = {
    forceFlush: () => {
      calls.push('forceFlush');
      return flush();
    },
    shutdown: async () => {
      calls.push('shutdown');
    },
    stats: () => held,
  };
  return { target, calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('flushBeforeExit', () => {
  it('flushes only when traces are held, once at a time, and never stops tracing after a flush in time', async () => {
    const proc = new EventEmitter();
    let finish = () => {};
    const held = { queuedTraces: 0, openTraces: 0 };
    const { target, calls } = fakeTarget(held, () => new Promise<void>((resolve) => (finish = resolve)));
    flushBeforeExit(target, 10_000, proc);
    proc.emit('beforeExit');
    expect(calls).toEqual([]);
    held.openTraces = 1;
    proc.emit('beforeExit');
    proc.emit('beforeExit'); // again while flushing: not a second flush
    expect(calls).toEqual(['forceFlush']);
    finish();
    // The app did more work and the loop ran dry again: once the first flush has settled, another.
    await vi.waitFor(() => {
      proc.emit('beforeExit');
      expect(calls).toEqual(['forceFlush', 'forceFlush']);
    });
    expect(proc.listenerCount('beforeExit')).toBe(1);
  });

  it('shuts down when the flush outlasts the bound, and removes its listener', async () => {
    vi.useFakeTimers();
    const proc = new EventEmitter();
    const { target, calls } = fakeTarget(
      { queuedTraces: 3, openTraces: 0 },
      () => new Promise<void>(() => {}),
    );
    flushBeforeExit(target, 5_000, proc);
    proc.emit('beforeExit');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(calls).toEqual(['forceFlush']);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['forceFlush', 'shutdown']);
    expect(proc.listenerCount('beforeExit')).toBe(0);
  });

  it('never throws into the process, whatever the target does, and can be removed', () => {
    const proc = new EventEmitter();
    const target: FlushTarget = {
      forceFlush: () => {
        throw new Error('broken');
      },
      shutdown: () => Promise.reject(new Error('broken')),
      stats: () => ({ queuedTraces: 1, openTraces: 0 }),
    };
    const uninstall = flushBeforeExit(target, 1_000, proc);
    expect(() => proc.emit('beforeExit')).not.toThrow();
    uninstall();
    expect(proc.listenerCount('beforeExit')).toBe(0);
  });
});
