import { afterEach, describe, expect, it, vi } from 'vitest';
import { TraceSender } from '../src/export/trace-sender.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';
import { makeRecord } from './export-helpers/records.js';

afterEach(() => {
  vi.useRealTimers();
});

/** What the client throws when nothing listens: a failure the sender retries. */
function connectionRefused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { name: 'AqmConnectionError' });
}

describe('TraceSender.flush during an outage', () => {
  it('resolves at maxRetryElapsedMs plus one backoff wait even when more batches wait than concurrency', async () => {
    vi.useFakeTimers();
    const sender = new TraceSender({
      submit: () => Promise.reject(connectionRefused()),
      applicationId: '3f1c2b4e-8a7d-4e2f-9b1a-0c6d5e4f3a2b',
      concurrency: 1,
      maxBatchTraces: 1, // three batches: the second starts its retries when the first gives up
      maxBatchBytes: 1024 * 1024,
      batchDelayMs: 0,
      maxQueueTraces: 100,
      maxQueueBytes: 1024 * 1024,
      maxRetryElapsedMs: 10_000,
      maxValueChars: 32_768,
      timing: {
        backoff: { initialMs: 1000, factor: 2, maxMs: 2000 },
        random: () => 1,
        now: () => Date.now(),
      },
      logger: new CaptureLogger(),
    });
    for (let i = 0; i < 3; i += 1) sender.enqueue(makeRecord());
    let flushed = false;
    void sender.flush().then(() => {
      flushed = true;
    });
    await vi.advanceTimersByTimeAsync(11_999);
    expect(flushed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(flushed).toBe(true);
    // The traces the flush did not see through stay queued; the bound only ends the wait.
    expect(sender.stats().queuedTraces).toBeGreaterThan(0);
    expect(sender.stats().droppedTraces.byReason['retries-exhausted']).toBe(1);
    const shutdown = sender.shutdown(100);
    await vi.advanceTimersByTimeAsync(100);
    await shutdown;
  });
});
