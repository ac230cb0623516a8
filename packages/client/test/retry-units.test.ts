import { afterEach, describe, expect, it, vi } from 'vitest';
import { AqmServerError } from '../src/errors.js';
import { type AttemptOutcome, abortableSleep, backoffDelay, withRetries } from '../src/retry.js';
import { parseRetryAfter } from '../src/retry-after.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T10:00:00Z');
  it.each([
    ['0', 0],
    ['7', 7000],
    ['1.25', 1250],
    [' 2 ', 2000],
    [['4', '9'], 4000],
    ['Sun, 01 Mar 2026 10:00:30 GMT', 30_000],
    ['Sun, 01 Mar 2026 09:00:00 GMT', 0],
    ['-1', undefined],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%o → %o ms', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});

describe('backoffDelay', () => {
  const policy = {
    retryable: true,
    maxRetries: 9,
    initialRetryDelayMs: 500,
    maxRetryDelayMs: 8000,
    maxRetryAfterMs: 60_000,
  };
  it('is random(0, min(max, initial · 2^retry))', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy, () => 0.999))).toEqual(
      [500, 1000, 2000, 4000, 8000, 8000].map((d) => d * 0.999),
    );
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
  });
});

describe('abortableSleep', () => {
  it('resolves after the delay and keeps the process alive while the caller waits', async () => {
    vi.useFakeTimers();
    const spy = vi.spyOn(globalThis, 'setTimeout');
    let done = false;
    const sleeping = abortableSleep(1000).then(() => {
      done = true;
    });
    const timer = spy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(true);
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(done).toBe(true);
  });

  it('rejects with the abort reason, at once', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort(new Error('cancel'));
    await expect(sleeping).rejects.toThrow('cancel');
    await expect(abortableSleep(1, controller.signal)).rejects.toThrow('cancel');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('withRetries', () => {
  const failure = (): AttemptOutcome<string> & { ok: false } => ({
    ok: false,
    transient: true,
    error: new AqmServerError('503', { status: 503, method: 'GET', path: '/x' }),
  });
  const clock = { sleep: async () => {}, random: () => 0 };

  it('does not retry a request that is not retryable', async () => {
    const attempt = vi.fn(async () => failure());
    const policy = {
      retryable: false,
      maxRetries: 3,
      initialRetryDelayMs: 1,
      maxRetryDelayMs: 1,
      maxRetryAfterMs: 60_000,
    };
    await expect(withRetries(attempt, policy, clock, undefined)).rejects.toBeInstanceOf(AqmServerError);
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('uses retryAfterMs when the outcome carries it', async () => {
    const sleeps: number[] = [];
    const outcomes: AttemptOutcome<string>[] = [
      { ...failure(), retryAfterMs: 1234 },
      { ok: true, value: 'done' },
    ];
    const policy = {
      retryable: true,
      maxRetries: 3,
      initialRetryDelayMs: 100,
      maxRetryDelayMs: 100,
      maxRetryAfterMs: 60_000,
    };
    const result = await withRetries(
      async () => outcomes.shift()!,
      policy,
      { random: () => 0.5, sleep: async (ms) => void sleeps.push(ms) },
      undefined,
    );
    expect(result).toBe('done');
    expect(sleeps).toEqual([1234]);
  });
});
