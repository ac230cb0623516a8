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

  it('releases many roots that fall due together in slices of 32, one slice per timer turn', () => {
    vi.useFakeTimers();
    try {
      const { pipeline, added } = fakePipeline();
      const grace = new RootGrace(1000, 1000);
      for (let i = 0; i < 100; i += 1) grace.hold(pipeline, span(`r${i}`));
      vi.advanceTimersByTime(1000);
      // One turn hands over one slice only: the rest wait for the next turns, oldest first.
      expect(added.map((names) => names.length)).toEqual([32]);
      expect(grace.held).toBe(68);
      vi.advanceTimersByTime(1);
      vi.advanceTimersByTime(1);
      vi.advanceTimersByTime(1);
      expect(added.map((names) => names.length)).toEqual([32, 32, 32, 4]);
      expect(added.flat()).toEqual(Array.from({ length: 100 }, (_, i) => `r${i}`));
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
