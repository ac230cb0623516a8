import { describe, expect, it } from 'vitest';
import { AqmSpanProcessor } from '../src/processor.js';
import { deferred } from './export-helpers/fake-service.js';
import { aqmOptions, llmCall, registerProvider, testInternals } from './export-helpers/otel-setup.js';
import { APPLICATION_ID } from './export-helpers/sender-setup.js';
import { withFakeService } from './export-helpers/service-per-test.js';

const { service, cleanup } = withFakeService();

/** A processor on a registered provider whose application id is the given promise. */
function setUp(applicationId: Promise<string>, extra: { shutdownTimeoutMs?: number } = {}) {
  const { logger, internals } = testInternals();
  const processor = new AqmSpanProcessor(aqmOptions(service(), { applicationId, ...extra }), internals);
  const registration = registerProvider(processor);
  cleanup(() => registration.unregister());
  return { processor, logger };
}

describe('applicationId given as a promise', () => {
  it('queues traces until the id is known, then sends them to that application', async () => {
    const id = deferred<string>();
    const { processor } = setUp(id.promise);
    const traceId = await llmCall('What is the refund policy?', 'Within 30 days.');
    // The trace is complete and queued, but nothing can be sent before the id is known.
    expect(processor.stats()).toMatchObject({ queuedTraces: 1, exportedTraces: 0 });
    expect(service().requests).toHaveLength(0);

    id.resolve(APPLICATION_ID);
    await processor.forceFlush();
    expect(service().requests.map((request) => request.path)).toEqual([
      `/api/applications/${APPLICATION_ID}/evaluations`,
    ]);
    expect(service().acceptedTraces.map((trace) => trace.traceId)).toEqual([traceId]);
    expect(processor.stats()).toMatchObject({ exportedTraces: 1, queuedTraces: 0 });
  });

  it('drops the traces (reason failed) and says why once when the promise rejects', async () => {
    const id = deferred<string>();
    const { processor, logger } = setUp(
      id.promise.then(() => Promise.reject(new Error('no application named "support-bot"'))),
    );
    await llmCall('one', '1');
    await llmCall('two', '2');
    id.resolve('');
    await processor.forceFlush();
    expect(service().requests).toHaveLength(0);
    expect(processor.stats().droppedTraces).toEqual({ total: 2, byReason: { failed: 2 } });
    const errors = logger.at('error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('The application id could not be resolved');
    expect(errors[0]).toContain('no application named "support-bot"');
  });

  it('treats an id that is not a UUID like a rejection, naming the option and the value', async () => {
    const { processor, logger } = setUp(Promise.resolve('support-bot'));
    await llmCall('one', '1');
    await processor.forceFlush();
    expect(service().requests).toHaveLength(0);
    expect(processor.stats().droppedTraces.byReason).toEqual({ failed: 1 });
    expect(logger.at('error')[0]).toContain(
      'Expected `applicationId` to be an application id (a UUID), got `support-bot` (string)',
    );
  });

  it('still shuts down within shutdownTimeoutMs when the id never arrives', async () => {
    const never = new Promise<string>(() => {});
    const { processor } = setUp(never, { shutdownTimeoutMs: 50 });
    await llmCall('one', '1');
    await processor.shutdown();
    expect(processor.stats().droppedTraces.byReason).toEqual({ shutdown: 1 });
    expect(processor.stats().queuedTraces).toBe(0);
  });

  it('does not leave an unhandled rejection when another option is invalid', async () => {
    const rejected = Promise.reject(new Error('lookup failed'));
    expect(
      () => new AqmSpanProcessor(aqmOptions(service(), { applicationId: rejected, concurrency: 0 })),
    ).toThrow('Expected `concurrency` to be an integer from 1 to 64, got `0` (number)');
    // vitest fails the run on an unhandled rejection; give it the turn it needs to surface one.
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('still refuses a value that is neither a string nor a promise at construction', () => {
    expect(
      () => new AqmSpanProcessor(aqmOptions(service(), { applicationId: 42 as unknown as string })),
    ).toThrow('Expected `applicationId` to be an application id (a UUID), got `42` (number)');
  });
});
