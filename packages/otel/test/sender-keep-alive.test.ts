import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepAliveUntil } from '../src/export/keep-alive.js';
import { sleep } from '../src/export/sleep.js';
import { deferred } from './export-helpers/fake-service.js';

function refTimers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('keepAliveUntil (an awaited flush keeps the process alive)', () => {
  it('holds one ref’d timer while the promise is pending and releases it when it settles', async () => {
    const before = refTimers();
    const pending = deferred();
    const kept = keepAliveUntil(pending.promise, 60_000);
    expect(refTimers()).toBe(before + 1);
    pending.resolve();
    await kept;
    expect(refTimers()).toBe(before);
  });

  it('lets go after maxMs, so a flush that cannot finish never holds the process forever', async () => {
    vi.useFakeTimers();
    const pending = deferred();
    let settled = false;
    void keepAliveUntil(pending.promise, 1000).then(() => {
      settled = true;
    });
    expect(vi.getTimerCount()).toBe(2);
    vi.advanceTimersByTime(1000);
    expect(vi.getTimerCount()).toBe(0);
    pending.resolve();
    await vi.waitFor(() => expect(settled).toBe(true));
  });
});

describe('sleep (retry waits)', () => {
  it('never keeps the process alive and ends early on abort', async () => {
    const before = refTimers();
    const controller = new AbortController();
    const waiting = sleep(60_000, [controller.signal]);
    expect(refTimers()).toBe(before);
    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
  });

  it('ends after its time', async () => {
    vi.useFakeTimers();
    let done = false;
    void sleep(1000, []).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
