import { performance } from 'node:perf_hooks';
import { AqmSpanProcessor } from '@aqm/otel';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { DiagCapture } from '../otel/helpers/capture-diag.js';
import { endLlmTrace, endLlmTraces, providerWith } from '../otel/helpers/llm-trace.js';
import { sameMembers, startTestService, storedTraces } from '../otel/helpers/service.js';
import { waitFor, within } from '../otel/helpers/wait.js';
import { applyFault } from './helpers/apply-fault.js';
import { FAULT_CASES, POISON } from './helpers/fault-cases.js';
import { SeedFinder } from './helpers/seeded-faults.js';

/** The retry schedule shrunk from 1 s..30 s (the test seam), so a case takes a fraction of a second. */
const BACKOFF = { initialMs: 50, factor: 2, maxMs: 200 };
// Cases about a hang set their own (HANG_TIMEOUT_MS); for the others a request must not time out
// because the machine is loaded (a 300 ms answer took over 1 s in a CI run): that adds a request.
const REQUEST_TIMEOUT_MS = 3000;
const MAX_RETRY_ELAPSED_MS = 1500;
const SHUTDOWN_TIMEOUT_MS = 1000;
/** Room for scheduling on a busy 2-core machine, on top of each documented bound. */
const MARGIN_MS = 1000;
/** Each case's own time limit: a stuck case fails alone, with its name. */
const CASE_TIMEOUT_MS = 20_000;
/** Timers may fire a millisecond early against the wall clock. */
const CLOCK_SLACK_MS = 5;

// One table of faults (helpers/fault-cases.ts), each case against its own local service, so the
// cases run concurrently. Each asserts what the service holds (each trace once, by traceId), what
// stats() counts as dropped and by which reason, the retries, and how long flush and shutdown took.
describe.concurrent('fault matrix: AqmSpanProcessor → local service', () => {
  let seeds: SeedFinder;
  beforeAll(async () => {
    seeds = await SeedFinder.start();
  });
  afterAll(() => seeds?.close());

  it.for(FAULT_CASES)('$name', { timeout: CASE_TIMEOUT_MS }, async (fc, { expect }) => {
    const service = await startTestService('fault-matrix');
    const applicationId = await service.createApp('fault-matrix');
    const startedAt = Date.now();
    const { setup, notBefore } = fc.fault(startedAt);
    const fault = await applyFault(service, setup, seeds);
    const logger = new DiagCapture();
    const maxRetryElapsedMs = fc.maxRetryElapsedMs ?? MAX_RETRY_ELAPSED_MS;
    const processor = new AqmSpanProcessor(
      {
        apiKey: service.apiKey,
        baseUrl: fault.baseUrl,
        applicationId,
        requestTimeoutMs: fc.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
        maxRetryElapsedMs,
        shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
        maxBatchTraces: fc.maxBatchTraces ?? 50,
      },
      { timing: { backoff: BACKOFF }, logger },
    );
    const provider = providerWith(processor);
    let shutDown = false;
    try {
      const tracer = provider.getTracer('fault-matrix');
      // One synchronous loop: a single batch (unless the case lowers maxBatchTraces).
      const good = endLlmTraces(tracer, 2, 'before');
      const poisoned = endLlmTrace(tracer, `Please swallow this ${POISON}`, 'No.');
      good.push(...endLlmTraces(tracer, 3, 'after'));
      const produced = [...good.slice(0, 2), poisoned, ...good.slice(2)];
      const recovered = fault.recovery();

      if (fc.exporter.end === 'flush-then-probe') {
        // The flush returns as soon as a request finds delivery impossible (401/404), well before
        // the retry bound; the probes of the paused sender then deliver what it holds.
        await within(provider.forceFlush(), MARGIN_MS + 5000, 'forceFlush()');
        expect(service.srv.requestCount('evaluations.submit')).toBeGreaterThanOrEqual(1);
        await waitFor(() => processor.stats().exportedTraces === produced.length, 'delivery after the pause');
      } else if (fc.exporter.end === 'flush') {
        // forceFlush() waits at most maxRetryElapsedMs per batch plus one last backoff wait.
        const bound = maxRetryElapsedMs + BACKOFF.maxMs + MARGIN_MS;
        const flushStarted = performance.now();
        await within(provider.forceFlush(), bound + 5000, 'forceFlush()');
        const flushMs = performance.now() - flushStarted;
        expect(flushMs).toBeLessThan(bound);
        if (notBefore !== undefined && fc.exporter.delivered !== 'none') {
          expect(Date.now()).toBeGreaterThanOrEqual(notBefore - CLOCK_SLACK_MS);
        }
      } else {
        // Paused and probing: then shutdown() gives up what is held rather than waiting for a fix.
        await waitFor(() => service.srv.requestCount('evaluations.submit') >= 2, 'a paused probe');
      }
      await recovered;
      const shutdownStarted = performance.now();
      await within(provider.shutdown(), SHUTDOWN_TIMEOUT_MS + 5000, 'shutdown()');
      shutDown = true;
      expect(performance.now() - shutdownStarted).toBeLessThan(SHUTDOWN_TIMEOUT_MS + MARGIN_MS);

      const expected = {
        all: produced,
        'all-but-poison': good,
        none: [] as string[],
      }[fc.exporter.delivered];
      const stats = processor.stats();
      const requests = service.srv.requestCount('evaluations.submit');
      expect(stats.exportedTraces).toBe(expected.length);
      const dropped = fc.exporter.dropped;
      const droppedCount =
        dropped === undefined ? 0 : dropped.count === 'all' ? produced.length : dropped.count;
      expect(stats.droppedTraces).toEqual({
        total: droppedCount,
        byReason: dropped === undefined ? {} : { [dropped.reason]: droppedCount },
      });
      expect(stats.queuedTraces).toBe(0);
      expect(stats.queuedBytes).toBe(0);
      if (fc.exporter.requests !== undefined) expect(requests).toBe(fc.exporter.requests);
      if (fc.exporter.retries !== undefined) {
        expect(stats.retries).toBe(fc.exporter.retries === 'requests-1' ? requests - 1 : fc.exporter.retries);
      }
      if (fc.exporter.pauseError !== undefined) {
        const errors = logger.at('error');
        expect(errors[0]).toMatch(fc.exporter.pauseError);
        // Said once; what shutdown then gave up is said once more, with the count.
        expect(errors.slice(1)).toEqual(
          droppedCount > 0
            ? [
                expect.stringMatching(
                  new RegExp(`^${droppedCount} trace\\(s\\) were not delivered before shutdown`),
                ),
              ]
            : [],
        );
      }
      // Exactly once by traceId: the service holds each expected trace and nothing else.
      const stored = await storedTraces(service.client, applicationId);
      expect(stored.total).toBe(expected.length);
      expect(sameMembers(stored.traceIds, new Set(expected))).toBe(true);
    } finally {
      if (!shutDown) await provider.shutdown();
      await fault.close();
      await service.close();
    }
  });
});
