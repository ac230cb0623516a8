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
});

describe('sumPipelineStats', () => {
  it('keeps the disk: one shared folder seen by each pipeline, what each did added up', () => {
    const total = sumPipelineStats([
      { ...emptyStats(), exportedTraces: 2, disk: disk(3, 5) },
      { ...emptyStats(), exportedTraces: 1, disk: disk(4, 7, false) },
      { ...emptyStats(), exportedTraces: 1 },
    ]);
    expect(total.exportedTraces).toBe(4);
    expect(total.disk).toEqual({
      writable: false,
      files: 4,
      traces: 40,
      bytes: 4000,
      oldestAgeMs: 400,
      spilledTraces: 12,
      replayedTraces: 10,
      corruptFiles: 2,
    });
    expect(sumPipelineStats([emptyStats()]).disk).toBeUndefined();
  });
});
