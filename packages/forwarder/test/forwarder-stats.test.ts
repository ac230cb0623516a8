import { emptyStats } from '@aqm/otel/pipeline';
import { describe, expect, it } from 'vitest';
import { sumPipelineStats } from '../src/forwarder-stats.js';

const disk = (files: number, spilledTraces: number, writable = true) => ({
  writable,
  files,
  traces: files * 10,
  bytes: files * 1000,
  oldestAgeMs: files * 100,
  spilledTraces,
  replayedTraces: spilledTraces - 1,
  corruptFiles: 1,
  loggedTraces: 3,
});

describe('sumPipelineStats', () => {
  it('keeps the disk: a folder per pipeline, all added up; the oldest of all', () => {
    const total = sumPipelineStats([
      { ...emptyStats(), exportedTraces: 2, disk: disk(3, 5) },
      { ...emptyStats(), exportedTraces: 1, disk: disk(4, 7, false) },
      { ...emptyStats(), exportedTraces: 1 },
    ]);
    expect(total.exportedTraces).toBe(4);
    expect(total.disk).toEqual({
      writable: false,
      files: 7,
      traces: 70,
      bytes: 7000,
      oldestAgeMs: 400,
      spilledTraces: 12,
      replayedTraces: 10,
      corruptFiles: 2,
      loggedTraces: 6,
    });
    expect(sumPipelineStats([emptyStats()]).disk).toBeUndefined();
  });
});
