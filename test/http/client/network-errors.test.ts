import {
  AqmClient,
  AqmConnectionError,
  AqmRateLimitError,
  AqmServerError,
  AqmTimeoutError,
} from '@aqm/client';
import type { FaultRule } from '@aqm/server';
import { errorEnvelopeSchema, widgetSchema } from '@aqm/wire';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, rejection, type Service, startService } from './helpers.js';

// The error classes of failing services and networks, produced by the local service's fault
// injection and by a port nobody listens on; and a retry that succeeds.
describe('client errors of a failing service or network', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterEach(() => service.srv.setFaults(null));
  afterAll(() => service.stop());

  /** A client that gives up after one attempt, so each fault is seen exactly once. */
  const once = () => service.clientWith({ maxRetries: 0 });

  it('AqmRateLimitError: 429 with Retry-After sets retryAfterMs', async () => {
    service.srv.setFaults({ rules: [{ route: 'widgets.list', status: 429, retryAfter: 7 }] });
    const before = service.srv.requestCount('widgets.list');
    const error = await rejection(once().widgets.list(), AqmRateLimitError);
    expect(error).toMatchObject({ status: 429, method: 'GET', path: '/widgets', retryAfterMs: 7000 });
    expect(errorEnvelopeSchema.parse(error.body).success).toBe(false);
    expect(service.srv.requestCount('widgets.list') - before).toBe(1);
  });

  it.each([500, 503])('AqmServerError: %i', async (status) => {
    service.srv.setFaults({ rules: [{ route: 'metrics.eval', status }] });
    const before = service.srv.requestCount('metrics.eval');
    const error = await rejection(once().metrics.eval(), AqmServerError);
    expect(error).toMatchObject({ status, method: 'GET', path: '/metrics/eval' });
    expect(error.message).toContain(String(status));
    expect(service.srv.requestCount('metrics.eval') - before).toBe(1);
  });

  it('AqmConnectionError: the service resets the connection', async () => {
    service.srv.setFaults({ rules: [{ route: 'metrics.security', reset: true }] });
    const error = await rejection(once().metrics.security(), AqmConnectionError);
    expect(error).toMatchObject({ status: undefined, method: 'GET', path: '/metrics/security' });
    expect(error.cause).toBeDefined();
    expect(error.message).toContain('connection failed');
  });

  it('AqmConnectionError: nothing listens on the port', async () => {
    const port = await closedPort();
    const client = new AqmClient({
      apiKey: service.key,
      baseUrl: `http://127.0.0.1:${port}/api`,
      maxRetries: 0,
    });
    try {
      const error = await rejection(client.guardrails.validators(), AqmConnectionError);
      expect(error).toMatchObject({ status: undefined, method: 'GET', path: '/guardrails/validators' });
      expect(error.cause).toMatchObject({ code: 'ECONNREFUSED' });
      expect(error.message).toContain('ECONNREFUSED');
      expect(error.message).not.toContain(service.key);
    } finally {
      await client.close();
    }
  });

  it('AqmTimeoutError: the service never answers within timeoutMs', async () => {
    service.srv.setFaults({ rules: [{ route: 'widgets.list', hang: true }] });
    const client = service.clientWith({ timeoutMs: 300, maxRetries: 0 });
    const error = await rejection(client.widgets.list(), AqmTimeoutError);
    expect(error).toMatchObject({ status: undefined, method: 'GET', path: '/widgets', timeoutMs: 300 });
    expect(error).toBeInstanceOf(AqmConnectionError);
    expect(error.message).toContain('300 ms');
  });

  it('a 503 on the first attempt only is retried, and the retry succeeds', async () => {
    const rule: FaultRule = { route: 'widgets.list', rate: 0.5, status: 503 };
    const seed = await seedHittingFirstOnly(rule);
    service.srv.setFaults({ seed, rules: [rule] });
    const before = service.srv.requestCount('widgets.list');
    const client = service.clientWith({ maxRetries: 2, initialRetryDelayMs: 1 });
    const widgets = widgetSchema.array().parse(await client.widgets.list());
    expect(widgets.length).toBeGreaterThan(0);
    expect(service.srv.requestCount('widgets.list') - before).toBe(2);
  });

  /**
   * A fault seed whose PRNG hits the first request matching `rule` and spares the second, found
   * by asking the service (setting the faults restarts the PRNG), so the test does not depend on
   * the PRNG's numbers.
   */
  async function seedHittingFirstOnly(rule: FaultRule): Promise<number> {
    const probe = once();
    const outcome = () =>
      probe.widgets.list().then(
        () => 'served',
        (error: unknown) => (error instanceof AqmServerError ? error.status : error),
      );
    for (let seed = 1; seed <= 64; seed++) {
      service.srv.setFaults({ seed, rules: [rule] });
      if ((await outcome()) === 503 && (await outcome()) === 'served') return seed;
    }
    throw new Error('no seed from 1 to 64 makes the rule hit the first request only');
  }
});
