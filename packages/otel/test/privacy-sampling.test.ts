import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSampledIn } from '../src/privacy/sampling.js';

const traceIds = Array.from({ length: 10_000 }, () => randomBytes(16).toString('hex'));

describe('isSampledIn', () => {
  it('keeps everything at 1 and nothing at 0', () => {
    expect(traceIds.every((id) => isSampledIn(id, 1))).toBe(true);
    expect(traceIds.some((id) => isSampledIn(id, 0))).toBe(false);
  });

  it('is deterministic by trace id', () => {
    for (const id of traceIds.slice(0, 500)) expect(isSampledIn(id, 0.3)).toBe(isSampledIn(id, 0.3));
  });

  it.each([0.1, 0.25, 0.5, 0.9])('keeps about %s of 10,000 random trace ids', (rate) => {
    const kept = traceIds.filter((id) => isSampledIn(id, rate)).length / traceIds.length;
    // 10k Bernoulli draws: the standard deviation is at most 0.005, so ±0.03 is six sigma.
    expect(Math.abs(kept - rate)).toBeLessThan(0.03);
  });

  it('is monotonic: a trace kept at a rate is kept at every higher rate', () => {
    for (const id of traceIds.slice(0, 1000)) {
      if (isSampledIn(id, 0.2)) expect(isSampledIn(id, 0.6)).toBe(true);
    }
  });

  it('decides deterministically for ids that are not hex too', () => {
    const kept = Array.from({ length: 2000 }, (_, i) => `trace-${i}`).filter((id) =>
      isSampledIn(id, 0.5),
    ).length;
    expect(kept).toBeGreaterThan(800);
    expect(kept).toBeLessThan(1200);
    expect(isSampledIn('trace-1', 0.5)).toBe(isSampledIn('trace-1', 0.5));
  });
});
