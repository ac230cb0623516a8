import { AqmAuthenticationError, AqmConnectionError, AqmServerError } from '@aqm/client';
import { describe, expect, it } from 'vitest';
import type { ApplicationIdLookup } from '../src/options.js';
import { AqmSpanProcessor } from '../src/processor.js';
import { aqmOptions, llmCall, registerProvider, testInternals } from './export-helpers/otel-setup.js';
import { APPLICATION_ID } from './export-helpers/sender-setup.js';
import { withFakeService } from './export-helpers/service-per-test.js';

const { service, cleanup } = withFakeService();

const refused = () =>
  new AqmConnectionError('GET /applications: connection failed: connect ECONNREFUSED', {
    method: 'GET',
    path: '/applications',
  });

/** A lookup answering from `answers` in turn (an error is thrown), then the id; counts its calls. */
function scriptedLookup(answers: Error[]) {
  const calls: Array<{ timeoutMs: number }> = [];
  const lookup: ApplicationIdLookup = async ({ timeoutMs }) => {
    calls.push({ timeoutMs });
    const next = answers.shift();
    if (next !== undefined) throw next;
    return APPLICATION_ID;
  };
  return { lookup, calls };
}

function setUp(applicationId: ApplicationIdLookup, extra: { shutdownTimeoutMs?: number } = {}) {
  const { logger, internals } = testInternals();
  const processor = new AqmSpanProcessor(
    aqmOptions(service(), { applicationId, requestTimeoutMs: 1234, ...extra }),
    internals,
  );
  const registration = registerProvider(processor);
  cleanup(() => registration.unregister());
  return { processor, logger };
}

describe('applicationId given as a lookup function', () => {
  it('keeps the traces while the lookup fails transiently, retries it on the backoff, and sends them once it answers', async () => {
    const { lookup, calls } = scriptedLookup([
      refused(),
      new AqmServerError('GET /applications: 503', { status: 503, method: 'GET', path: '/applications' }),
    ]);
    const { processor, logger } = setUp(lookup);
    const traceId = await llmCall('kept?', 'yes.');
    await processor.forceFlush();
    expect(calls).toEqual([{ timeoutMs: 1234 }, { timeoutMs: 1234 }, { timeoutMs: 1234 }]);
    expect(service().acceptedTraces.map((trace) => trace.traceId)).toEqual([traceId]);
    expect(processor.stats()).toMatchObject({ exportedTraces: 1, retries: 2, droppedTraces: { total: 0 } });
    expect(logger.at('error')).toEqual([]);

    // Found once: later batches do not look up again.
    await llmCall('again?', 'yes.');
    await processor.forceFlush();
    expect(calls).toHaveLength(3);
    expect(processor.stats().exportedTraces).toBe(2);
  });

  it('pauses on a 401 (said once, traces kept), and sends once the lookup is answered', async () => {
    const unauthorized = () =>
      new AqmAuthenticationError('GET /applications: invalid API key', {
        status: 401,
        method: 'GET',
        path: '/applications',
      });
    const { lookup, calls } = scriptedLookup([unauthorized(), unauthorized(), unauthorized()]);
    const { processor, logger } = setUp(lookup);
    await llmCall('one', '1');
    await llmCall('two', '2');
    // A flush returns at once when delivery is blocked.
    await processor.forceFlush();
    expect(processor.stats()).toMatchObject({ queuedTraces: 2, droppedTraces: { total: 0 } });
    const errors = logger.at('error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('The service rejected the API key (401)');

    while (calls.length < 4) await processor.forceFlush();
    await processor.forceFlush();
    expect(service().acceptedTraces).toHaveLength(2);
    expect(logger.at('error')).toHaveLength(1);
  });

  it('gives up what it holds as in an outage (to persistDir when set), never as failed', async () => {
    const lookup: ApplicationIdLookup = async () => {
      throw refused();
    };
    const { processor } = setUp(lookup, { shutdownTimeoutMs: 100 });
    await llmCall('one', '1');
    await processor.shutdown();
    expect(service().requests).toHaveLength(0);
    // The manual clock runs the backoff at once: the retry budget is spent before the shutdown.
    expect(processor.stats().droppedTraces.byReason).toEqual({ 'retries-exhausted': 1 });
  });
});
