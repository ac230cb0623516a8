import { type AqmStats, emptyStats, type TracePipeline } from '@aqm/otel/pipeline';
import { describe, expect, it } from 'vitest';
import { Admission, type AdmissionLimits } from '../src/admission.js';

/** A pipeline whose counters the test sets. */
function fakePipeline(stats: Partial<AqmStats> = {}): TracePipeline & { held: AqmStats } {
  const held = { ...emptyStats(), ...stats };
  return { held, stats: () => held } as unknown as TracePipeline & { held: AqmStats };
}

const LIMITS: AdmissionLimits = {
  maxQueueTraces: 10,
  maxQueueBytes: 10_000,
  maxOpenTraces: 100,
  maxTotalQueueBytes: 15_000,
  maxDiskBytes: undefined,
};

function admitted(verdict: ReturnType<Admission['admit']>): boolean {
  return 'reservation' in verdict;
}

describe('Admission', () => {
  it('reserves what it admits, so shares answered together never pass the bound', () => {
    const pipeline = fakePipeline();
    const admission = new Admission(LIMITS, () => [pipeline]);
    const verdicts = Array.from({ length: 5 }, () => admission.admit(pipeline, { traces: 3, bytes: 10 }));
    expect(verdicts.map(admitted)).toEqual([true, true, true, false, false]);
    expect(verdicts[3]).toMatchObject({ refusal: { retryable: true } });
    expect(admission.inTransit).toEqual({ traces: 9, bytes: 30 });
  });

  it('counts queued and open traces and the bytes open traces hold (twice)', () => {
    const pipeline = fakePipeline({
      queuedTraces: 4,
      openTraces: 3,
      openTraceBytes: 4000,
      queuedBytes: 1000,
    });
    const admission = new Admission(LIMITS, () => [pipeline]);
    expect(admitted(admission.admit(pipeline, { traces: 4, bytes: 10 }))).toBe(false);
    expect(admitted(admission.admit(pipeline, { traces: 3, bytes: 1001 }))).toBe(false);
    expect(admitted(admission.admit(pipeline, { traces: 3, bytes: 1000 }))).toBe(true);
  });

  it('ends a reservation in parts, as the pipeline starts counting them', () => {
    const pipeline = fakePipeline();
    const admission = new Admission(LIMITS, () => [pipeline]);
    const verdict = admission.admit(pipeline, { traces: 9, bytes: 90 });
    if (!('reservation' in verdict)) throw new Error('expected admitted');
    verdict.reservation.release({ traces: 6, bytes: 60 });
    expect(admission.inTransit).toEqual({ traces: 3, bytes: 30 });
    // Releasing more than was reserved never makes room that is not there.
    verdict.reservation.release({ traces: 100, bytes: 1000 });
    verdict.reservation.release({ traces: 100, bytes: 1000 });
    expect(admission.inTransit).toEqual({ traces: 0, bytes: 0 });
  });

  it('judges each application alone, within the total across them', () => {
    const blocked = fakePipeline({ queuedTraces: 10, queuedBytes: 9000 });
    const healthy = fakePipeline();
    const admission = new Admission(LIMITS, () => [blocked, healthy]);
    expect(admission.hasRoom(blocked)).toBe(false);
    expect(admitted(admission.admit(healthy, { traces: 1, bytes: 6000 }))).toBe(true);
    // 9000 + 6000 held: the next one would pass maxTotalQueueBytes (15000).
    expect(admission.admit(healthy, { traces: 1, bytes: 1 })).toMatchObject({
      refusal: { reason: expect.stringMatching(/maxTotalQueueBytes 15000/), retryable: true },
    });
  });

  it('refuses for good a share larger than a queue can ever hold', () => {
    const pipeline = fakePipeline();
    const admission = new Admission(LIMITS, () => [pipeline]);
    expect(admission.admit(pipeline, { traces: 11, bytes: 10 })).toMatchObject({
      refusal: { retryable: false },
    });
  });

  it('with a disk, lets the traces past maxQueueTraces and the bytes past maxQueueBytes go there', () => {
    const pipeline = fakePipeline({ queuedTraces: 10, queuedBytes: 10_000 });
    const admission = new Admission({ ...LIMITS, maxDiskBytes: 5000 }, () => [pipeline]);
    expect(admitted(admission.admit(pipeline, { traces: 5, bytes: 4000 }))).toBe(true);
    expect(admitted(admission.admit(pipeline, { traces: 1, bytes: 1001 }))).toBe(false);
    pipeline.held.disk = {
      writable: true,
      files: 1,
      traces: 5,
      bytes: 4000,
      oldestAgeMs: 0,
      spilledTraces: 5,
      replayedTraces: 0,
      corruptFiles: 0,
      loggedTraces: 0,
    };
    expect(admitted(admission.admit(pipeline, { traces: 1, bytes: 1 }))).toBe(false);
  });
});
