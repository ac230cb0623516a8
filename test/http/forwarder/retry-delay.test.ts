import type { ForwarderOptions, RunningForwarder } from '@aqm/forwarder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../otel/helpers/wait.js';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import { jsonBody, llmTraceSpans, postOtlp } from './helpers/otlp-bodies.js';

let stack: ForwarderStack;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-retry-delay');
});
afterAll(async () => {
  await stack?.close();
});

function post(forwarder: RunningForwarder, label: string, count: number) {
  const spans = Array.from(
    { length: count },
    (_, i) => llmTraceSpans(`${label} ${i}?`, `${label} ${i}.`).spans,
  );
  return postOtlp(forwarder.url, jsonBody(spans.flat()), { contentType: 'application/json' });
}

type Stats = ReturnType<RunningForwarder['stats']>;

/**
 * Delivers one trace, sets the service's `faults`, fills the forwarder's queue (two traces), waits
 * for `settled`, and returns the answer to one more.
 */
async function refusedWhenFull(
  options: ForwarderOptions,
  faults: Parameters<ForwarderStack['service']['srv']['setFaults']>[0],
  settled: (stats: Stats) => boolean,
) {
  const forwarder = await stack.forwarder({ maxQueueTraces: 2, rootGraceMs: 0, batchDelayMs: 0, ...options });
  try {
    expect((await post(forwarder, 'first', 1)).status).toBe(200);
    await waitFor(() => forwarder.stats().pipeline.exportedTraces === 1, 'the first trace delivered');
    stack.service.srv.setFaults(faults);
    expect((await post(forwarder, 'fill', 2)).status).toBe(200);
    await waitFor(() => settled(forwarder.stats()), 'the queue full, the service answering as set');
    return await post(forwarder, 'more', 1);
  } finally {
    stack.service.srv.setFaults(null);
    await forwarder.close();
  }
}

describe('the delay a refused sender is told', () => {
  it('is 1 s while the service takes traces (the queue drains by itself), whatever retryAfterSeconds says', async () => {
    // The service answers, slowly: the queue is full, and on its way out.
    const refused = await refusedWhenFull(
      { retryAfterSeconds: 7 },
      { rules: [{ route: 'evaluations.submit', latencyMs: 1500 }] },
      (stats) => stats.pipeline.queuedTraces === 2,
    );
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
  });

  it('is retryAfterSeconds while requests to the service fail (the queue waits for the service)', async () => {
    const refused = await refusedWhenFull(
      { retryAfterSeconds: 7 },
      { rules: [{ route: 'evaluations.submit', status: 503 }] },
      // A submission failed since the first was accepted.
      (stats) => stats.pipeline.queuedTraces === 2 && stats.pipeline.retries > 0,
    );
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('7');
  });
});
