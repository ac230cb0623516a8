import { describe, expect, it } from 'vitest';
import { checkFaults } from '../src/faults.js';
import { buildApp } from '../src/index.js';
import { seededRandom } from '../src/prng.js';

describe('seededRandom', () => {
  it('gives the same sequence for the same seed, another for another seed', () => {
    const take = (seed: number) => {
      const next = seededRandom(seed);
      return Array.from({ length: 20 }, () => next());
    };
    expect(take(1)).toEqual(take(1));
    expect(take(1)).not.toEqual(take(2));
  });

  it('draws in [0, 1) and spreads evenly', () => {
    const next = seededRandom(123);
    const draws = Array.from({ length: 10_000 }, () => next());
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    const below = draws.filter((d) => d < 0.3).length / draws.length;
    expect(below).toBeGreaterThan(0.27);
    expect(below).toBeLessThan(0.33);
  });
});

describe('checkFaults', () => {
  it('fills in the defaults', () => {
    expect(checkFaults({ rules: [{ status: 503 }] })).toEqual({ seed: 1, rules: [{ rate: 1, status: 503 }] });
  });

  it.each([
    [null, /faults must be an object/],
    [{ rules: 'all' }, /faults\.rules must be an array/],
    [{ rules: [], extra: 1 }, /faults\.extra is not a known option/],
    [{ rules: [5] }, /faults\.rules\[0\] must be an object, got 5/],
    [{ rules: [{ status: 503, colour: 'red' }] }, /faults\.rules\[0\]\.colour is not a known option/],
    [{ rules: [{ status: 503, rate: -0.1 }] }, /rate must be a number from 0 to 1, got -0\.1/],
    [{ rules: [{ status: 503, rate: Number.NaN }] }, /rate must be a number from 0 to 1, got NaN/],
    [{ rules: [{ status: 99 }] }, /status must be an integer from 400 to 599, got 99/],
    [{ rules: [{ status: 503, retryAfter: -1 }] }, /retryAfter must be an integer number of seconds/],
    [{ rules: [{ hang: 'yes' }] }, /hang must be a boolean, got "yes"/],
    [{ rules: [{ status: 500, reset: true }] }, /at most one of status, reset, hang; got status, reset/],
    [{ rules: [{}] }, /must have an effect/],
  ])('refuses %j', (value, message) => {
    expect(() => checkFaults(value)).toThrow(message);
  });

  it('accepts Retry-After as seconds, a digit string or an HTTP date', () => {
    for (const retryAfter of [0, 30, '30', 'Wed, 21 Oct 2026 07:28:00 GMT']) {
      expect(checkFaults({ rules: [{ status: 429, retryAfter }] }).rules[0]?.retryAfter).toBe(retryAfter);
    }
  });
});

describe('faults in the app (inject)', () => {
  const apiKeys = [{ key: 'k', projectId: 'p' }];

  it('applies the first rule that hits, in order', async () => {
    const app = buildApp({
      apiKeys,
      faults: {
        rules: [
          { route: 'widgets.list', status: 429, retryAfter: 2 },
          { status: 500, rate: 1 },
        ],
      },
    });
    try {
      const widgets = await app.inject({ method: 'GET', url: '/api/widgets', headers: { 'x-api-key': 'k' } });
      expect(widgets.statusCode).toBe(429);
      expect(widgets.headers['retry-after']).toBe('2');
      const other = await app.inject({
        method: 'GET',
        url: '/api/metrics/eval',
        headers: { 'x-api-key': 'k' },
      });
      expect(other.statusCode).toBe(500);
      expect(other.json()).toEqual({ success: false, message: 'Injected fault: status 500' });
    } finally {
      await app.close();
    }
  });

  it('hits the same requests for the same seed', async () => {
    const run = async (seed: number) => {
      const app = buildApp({ apiKeys, faults: { seed, rules: [{ rate: 0.5, status: 503 }] } });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        statuses.push(
          (await app.inject({ method: 'GET', url: '/api/widgets', headers: { 'x-api-key': 'k' } }))
            .statusCode,
        );
      }
      await app.close();
      return statuses;
    };
    const first = await run(9);
    expect(await run(9)).toEqual(first);
    // The PRNG decides: the same draws, compared with the rate, give the same hits.
    const next = seededRandom(9);
    expect(first).toEqual(Array.from({ length: 30 }, () => (next() < 0.5 ? 503 : 200)));
  });
});
