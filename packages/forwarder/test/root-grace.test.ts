import type { ReadableSpan, TracePipeline } from '@aqm/otel/pipeline';
import { describe, expect, it, vi } from 'vitest';
import { RootGrace } from '../src/root-grace.js';

function fakePipeline(): { pipeline: TracePipeline; added: string[][] } {
  const added: string[][] = [];
  const pipeline = {
    addSpans: (spans: ReadableSpan[]) => {
      added.push(spans.map((span) => span.name));
      return [];
    },
  } as unknown as TracePipeline;
  return { pipeline, added };
}

const span = (name: string) => ({ name }) as ReadableSpan;

describe('RootGrace', () => {
  it('hands roots on after the grace, oldest first, one call per pipeline', () => {
    vi.useFakeTimers();
    try {
      const { pipeline, added } = fakePipeline();
      const grace = new RootGrace(1000, 10);
      grace.hold(pipeline, span('a'));
      vi.advanceTimersByTime(500);
      grace.hold(pipeline, span('b'));
      expect(grace.held).toBe(2);
      vi.advanceTimersByTime(500);
      expect(added).toEqual([['a']]);
      vi.advanceTimersByTime(500);
      expect(added).toEqual([['a'], ['b']]);
      expect(grace.held).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is bounded: past maxHeld the oldest goes on at once; close() releases everything', () => {
    const { pipeline, added } = fakePipeline();
    const grace = new RootGrace(60_000, 2);
    for (const name of ['a', 'b', 'c']) grace.hold(pipeline, span(name));
    expect(added).toEqual([['a']]);
    grace.close();
    expect(added).toEqual([['a'], ['b', 'c']]);
    expect(grace.held).toBe(0);
  });

  it('releases the roots due in slices until a turn has spent its budget, the rest on the next turns', () => {
    vi.useFakeTimers();
    try {
      const { pipeline, added } = fakePipeline();
      // Every read of the budget clock says 2 ms more: three slices (6 ms) spend a turn's 5 ms.
      let elapsed = 0;
      const grace = new RootGrace(1000, 1000, Date.now, () => {
        elapsed += 2;
        return elapsed;
      });
      for (let i = 0; i < 100; i += 1) grace.hold(pipeline, span(`r${i}`));
      vi.advanceTimersByTime(1000);
      expect(added.map((names) => names.length)).toEqual([16, 16, 16]);
      expect(grace.held).toBe(52);
      // The rest on the next turns (setImmediate), oldest first, without waiting for a timer.
      vi.runOnlyPendingTimers();
      vi.runOnlyPendingTimers();
      expect(added.map((names) => names.length)).toEqual([16, 16, 16, 16, 16, 16, 4]);
      expect(added.flat()).toEqual(Array.from({ length: 100 }, (_, i) => `r${i}`));
      expect(grace.held).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('releases every root due in one turn when the budget allows, and keeps those not yet due', () => {
    vi.useFakeTimers();
    try {
      const { pipeline, added } = fakePipeline();
      const grace = new RootGrace(1000, 1000, Date.now, () => 0);
      for (let i = 0; i < 100; i += 1) grace.hold(pipeline, span(`r${i}`));
      vi.advanceTimersByTime(500);
      grace.hold(pipeline, span('late'));
      vi.advanceTimersByTime(500);
      expect(added.flat()).toHaveLength(100);
      expect(grace.held).toBe(1);
      vi.advanceTimersByTime(500);
      expect(added.flat().at(-1)).toBe('late');
      expect(grace.held).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("calls each root's done once it is in its pipeline (the admission's reservation ends then)", () => {
    const { pipeline, added } = fakePipeline();
    const done: string[] = [];
    const grace = new RootGrace(60_000, 10);
    grace.hold(pipeline, span('a'), () => done.push(`a after ${added.length} call(s)`));
    grace.hold(pipeline, span('b'));
    expect(done).toEqual([]);
    grace.close();
    expect(done).toEqual(['a after 1 call(s)']);
    new RootGrace(0, 10).hold(pipeline, span('c'), () => done.push('c'));
    expect(done).toEqual(['a after 1 call(s)', 'c']);
  });

  it('passes roots straight on with no grace', () => {
    const { pipeline, added } = fakePipeline();
    new RootGrace(0, 2).hold(pipeline, span('a'));
    expect(added).toEqual([['a']]);
  });
});
