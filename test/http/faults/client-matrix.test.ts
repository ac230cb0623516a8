import { performance } from 'node:perf_hooks';
import { type AqmApiError, AqmClient, AqmConnectionError } from '@aqm/client';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { makeTrace } from '../client/helpers.js';
import { sameMembers, startTestService, storedTraces } from '../otel/helpers/service.js';
import { within } from '../otel/helpers/wait.js';
import { applyFault } from './helpers/apply-fault.js';
import { FAULT_CASES, POISON } from './helpers/fault-cases.js';
import { SeedFinder } from './helpers/seeded-faults.js';

/** The client's retry knobs, small so a case takes a fraction of a second. */
const MAX_RETRIES = 3;
const INITIAL_RETRY_DELAY_MS = 50;
const MAX_RETRY_DELAY_MS = 200;
// Cases about a hang set their own (HANG_TIMEOUT_MS); the others must not time out on a loaded machine.
const TIMEOUT_MS = 3000;
/** Room for scheduling on a busy 2-core machine, on top of each bound. */
const MARGIN_MS = 1000;
/** Each case's own time limit: a stuck case fails alone, with its name. */
const CASE_TIMEOUT_MS = 20_000;
/** Timers may fire a millisecond early against the wall clock. */
const CLOCK_SLACK_MS = 5;

/** How a call ended. */
type Outcome = { ok: true; value: { accepted: number; traceIds: string[] } } | { ok: false; error: unknown };

// The same table as the exporter's (helpers/fault-cases.ts), for `client.evaluations.submit`: one
// call with three traces per case, each case against its own local service. Each asserts the
// error class (or the answer), the attempts the service received, what it holds afterwards and
// that the call ended within its retries' bound.
describe.concurrent('fault matrix: AqmClient evaluations.submit → local service', () => {
  let seeds: SeedFinder;
  beforeAll(async () => {
    seeds = await SeedFinder.start();
  });
  afterAll(() => seeds?.close());

  it.for(FAULT_CASES)('$name', { timeout: CASE_TIMEOUT_MS }, async (fc, { expect }) => {
    const service = await startTestService('client-matrix');
    const applicationId = await service.createApp('client-matrix');
    const startedAt = Date.now();
    const { setup, notBefore } = fc.fault(startedAt);
    const fault = await applyFault(service, setup, seeds);
    const maxRetries = fc.clientMaxRetries ?? MAX_RETRIES;
    const timeoutMs = fc.requestTimeoutMs ?? TIMEOUT_MS;
    const client = new AqmClient({
      apiKey: service.apiKey,
      baseUrl: fault.baseUrl,
      maxRetries,
      initialRetryDelayMs: INITIAL_RETRY_DELAY_MS,
      maxRetryDelayMs: MAX_RETRY_DELAY_MS,
      timeoutMs,
    });
    try {
      const now = Date.now();
      const traces = [
        makeTrace(now - 100, 50),
        makeTrace(now - 100, 50, { prompt: `Please swallow this ${POISON}` }),
        makeTrace(now - 100, 50),
      ];
      const ids = traces.map((trace) => trace.traceId);
      const before = service.srv.requestCount('evaluations.submit');
      // Every attempt within its timeout, every wait within the cap or the Retry-After.
      const bound =
        (maxRetries + 1) * timeoutMs +
        maxRetries * MAX_RETRY_DELAY_MS +
        Math.max(0, (notBefore ?? startedAt) - startedAt) +
        MARGIN_MS;
      const callStarted = performance.now();
      const call = client.evaluations.submit(applicationId, { traces }).then(
        (value): Outcome => ({ ok: true, value }),
        (error: unknown): Outcome => ({ ok: false, error }),
      );
      await fault.recovery();
      const outcome = await within(call, bound + 5000, 'evaluations.submit');
      expect(performance.now() - callStarted).toBeLessThan(bound);
      const attempts = service.srv.requestCount('evaluations.submit') - before;

      const { error: errorClass, status } = fc.client;
      if (errorClass === undefined) {
        expect(outcome).toEqual({ ok: true, value: { accepted: 3, traceIds: ids } });
        if (notBefore !== undefined) expect(Date.now()).toBeGreaterThanOrEqual(notBefore - CLOCK_SLACK_MS);
      } else {
        expect(outcome.ok).toBe(false);
        const error = (outcome as { error: Error }).error;
        // The exact class the client picked, not a parent or a subclass.
        expect(error.constructor).toBe(errorClass);
        if (status !== undefined) expect((error as AqmApiError).status).toBe(status);
        expect(error.message).not.toContain(service.apiKey);
        if (errorClass === AqmConnectionError) {
          expect((error as AqmConnectionError).cause).toMatchObject({ code: 'ECONNREFUSED' });
        }
      }
      if (fc.client.attempts !== undefined) expect(attempts).toBe(fc.client.attempts);
      // A failed call stored nothing; a successful one stored each trace once, retries included.
      const stored = await storedTraces(service.client, applicationId);
      const expected = errorClass === undefined ? ids : [];
      expect(stored.total).toBe(expected.length);
      expect(sameMembers(stored.traceIds, new Set(expected))).toBe(true);
    } finally {
      await within(client.close(), 2000, 'client.close()');
      await fault.close();
      await service.close();
    }
  });
});
