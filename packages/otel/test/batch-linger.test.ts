import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BatchLinger } from '../src/export/batch-linger.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A linger of `delayMs` that counts its expiries, with a clock of queued traces. */
function setup(delayMs: number) {
  const expired = vi.fn();
  const linger = new BatchLinger(delayMs, expired);
  const queue = () => ({ sequence: linger.nextSequence(), queuedAt: Date.now() });
  return { linger, expired, queue };
}

describe('BatchLinger', () => {
  it('makes a partial batch due once its oldest trace has waited delayMs', () => {
    const { linger, expired, queue } = setup(100);
    const first = queue();
    expect(linger.isDue(first, false)).toBe(false);
    vi.advanceTimersByTime(99);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledOnce();
    expect(linger.isDue(first, false)).toBe(true);
  });

  it('runs the wait from the trace now at the front after a full batch left', () => {
    const { linger, expired, queue } = setup(100);
    const first = queue();
    expect(linger.isDue(first, false)).toBe(false);
    vi.advanceTimersByTime(80);
    // `first` left in a full batch; the trace behind it arrived at 80 ms.
    const behind = queue();
    expect(linger.isDue(behind, false)).toBe(false);
    vi.advanceTimersByTime(20);
    expect(expired).not.toHaveBeenCalled(); // the old clock (100 ms) no longer counts
    expect(linger.isDue(behind, false)).toBe(false);
    vi.advanceTimersByTime(80);
    expect(expired).toHaveBeenCalledOnce();
    expect(linger.isDue(behind, false)).toBe(true);
  });

  it('counts the time the new front trace has already waited', () => {
    const { linger, expired, queue } = setup(100);
    const first = queue();
    vi.advanceTimersByTime(30);
    const second = queue();
    expect(linger.isDue(first, false)).toBe(false);
    vi.advanceTimersByTime(40); // 70 ms: `first` leaves, `second` has waited 40 ms
    expect(linger.isDue(second, false)).toBe(false);
    vi.advanceTimersByTime(59);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledOnce();
    expect(linger.isDue(second, false)).toBe(true);
  });

  it('never waits longer than delayMs when the wall clock was set back', () => {
    const { linger, expired } = setup(100);
    const fromTheFuture = { sequence: linger.nextSequence(), queuedAt: Date.now() + 3_600_000 };
    expect(linger.isDue(fromTheFuture, false)).toBe(false);
    vi.advanceTimersByTime(100);
    expect(expired).toHaveBeenCalledOnce();
    expect(linger.isDue(fromTheFuture, false)).toBe(true);
  });

  it('lets a full batch, a hurried trace or a zero delay go at once, and stops for good', () => {
    const zero = setup(0);
    expect(zero.linger.isDue(zero.queue(), false)).toBe(true);

    const { linger, expired, queue } = setup(100);
    const first = queue();
    expect(linger.isDue(first, true)).toBe(true);
    linger.hurry();
    expect(linger.isDue(first, false)).toBe(true);
    const later = queue();
    expect(linger.isDue(later, false)).toBe(false);
    linger.stop();
    vi.advanceTimersByTime(1000);
    expect(expired).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
