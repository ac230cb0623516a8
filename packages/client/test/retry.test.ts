import { getEventListeners } from 'node:events';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AqmAuthenticationError,
  AqmClient,
  type AqmClientOptions,
  AqmConflictError,
  AqmConnectionError,
  AqmNotFoundError,
  AqmRateLimitError,
  AqmServerError,
  AqmTimeoutError,
  AqmValidationError,
} from '../src/index.js';
import { systemClock } from '../src/retry.js';
import { fakeClock, withClock } from './helpers/clock.js';
import { hang, json, ok, reset, startTestServer, type TestServer } from './helpers/test-server.js';

const APP = '3f2c0a51-5d1e-4a43-9a0e-5f6d1c2b7e90';
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const failWith = (status: number, message = 'failed', headers: Record<string, string> = {}) =>
  json(status, { success: false, message }, headers);

let server: TestServer;
const clients: AqmClient[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
beforeEach(() => {
  server.requests.length = 0;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  vi.useRealTimers();
});
afterAll(async () => {
  await server.close();
});

function makeClient(options: Partial<AqmClientOptions> = {}, random = 0.5) {
  const fake = fakeClock(random);
  const client = new AqmClient(withClock({ apiKey: 'k', baseUrl: server.baseUrl, ...options }, fake.clock));
  clients.push(client);
  return { client, sleeps: fake.sleeps };
}

describe('retries transient failures of retryable requests', () => {
  it.each([502, 503, 504, 429])('%i twice, then success: 3 attempts', async (status) => {
    const { client, sleeps } = makeClient();
    server.reply(failWith(status), failWith(status), ok([{ id: 'latency' }]));
    await expect(client.widgets.list()).resolves.toEqual([{ id: 'latency' }]);
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it('throws the last error once maxRetries is used up', async () => {
    const { client } = makeClient({ maxRetries: 3 });
    server.reply(
      failWith(503, 'first'),
      failWith(503, 'second'),
      failWith(502, 'third'),
      failWith(504, 'last'),
    );
    const err = await client.metrics.eval().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AqmServerError);
    expect(err).toMatchObject({ status: 504, message: expect.stringContaining('last') });
    expect(server.requests).toHaveLength(4);
  });

  it('connection reset: retried, then AqmConnectionError with the cause', async () => {
    const { client } = makeClient();
    server.reply(reset, reset, reset);
    const err = await client.applications.get(APP).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AqmConnectionError);
    expect(err).toMatchObject({ status: undefined, method: 'GET', path: `/applications/${APP}` });
    expect((err as Error).cause).toBeInstanceOf(Error);
    expect(server.requests).toHaveLength(3);
  });

  it('connection reset once, then success', async () => {
    const { client } = makeClient();
    server.reply(reset, ok({ accepted: 1, traceIds: [TRACE] }));
    const traces = [
      {
        traceId: TRACE,
        prompt: 'p',
        response: 'r',
        startTime: new Date(0),
        endTime: new Date(0),
        status: 'success' as const,
      },
    ];
    await expect(client.evaluations.submit(APP, { traces })).resolves.toEqual({
      accepted: 1,
      traceIds: [TRACE],
    });
    expect(server.requests).toHaveLength(2);
    // The resubmission carries the same body: the service deduplicates by traceId.
    expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
  });

  it('timeout per attempt: retried, then AqmTimeoutError', async () => {
    const { client } = makeClient({ timeoutMs: 100, maxRetries: 1 });
    server.reply(hang, hang);
    const err = await client.guardrails.get(APP).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AqmTimeoutError);
    expect(err).toBeInstanceOf(AqmConnectionError);
    expect(err).toMatchObject({ timeoutMs: 100, method: 'GET', path: `/applications/${APP}/guardrails` });
    expect((err as Error).message).toContain('no response within 100 ms');
    expect(server.requests).toHaveLength(2);
  });

  it('per-call timeoutMs and maxRetries override the client settings', async () => {
    const { client } = makeClient({ timeoutMs: 60_000, maxRetries: 5 });
    server.reply(hang);
    const err = await client.metrics.eval({ timeoutMs: 50, maxRetries: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AqmTimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it('widget data (a POST that only reads) is retried', async () => {
    const { client } = makeClient();
    server.reply(failWith(503), ok([]));
    await client.widgets.data(APP, { types: ['latency'], start: new Date(0), end: new Date(1) });
    expect(server.requests).toHaveLength(2);
  });
});

describe('waits between attempts', () => {
  it('exponential backoff with full jitter: random · min(max, initial · 2^retry)', async () => {
    const { client, sleeps } = makeClient(
      { maxRetries: 5, initialRetryDelayMs: 100, maxRetryDelayMs: 1000 },
      0.5,
    );
    server.reply(failWith(503));
    await client.metrics.eval().catch(() => undefined);
    expect(sleeps).toEqual([50, 100, 200, 400, 500]);
    expect(server.requests).toHaveLength(6);
  });

  it('honours Retry-After in seconds instead of the backoff', async () => {
    const { client, sleeps } = makeClient();
    server.reply(failWith(429, 'slow down', { 'retry-after': '3' }), ok([]));
    await client.metrics.eval();
    expect(sleeps).toEqual([3000]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T10:00:00Z'));
    const { client, sleeps } = makeClient();
    server.reply(failWith(429, 'slow down', { 'retry-after': 'Sun, 01 Mar 2026 10:00:12 GMT' }), ok([]));
    await client.metrics.eval();
    expect(sleeps).toEqual([12_000]);
  });

  it('does not wait out a Retry-After past maxRetryAfterMs: fails at once, saying how long', async () => {
    const { client, sleeps } = makeClient({ maxRetryAfterMs: 60_000 });
    server.reply(failWith(503, 'maintenance', { 'retry-after': '3600' }));
    const err = await client.metrics.eval().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AqmServerError);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    server.reply(failWith(429, 'slow down', { 'retry-after': '61' }));
    const limited = await client.metrics.eval().catch((e: unknown) => e);
    expect((limited as AqmRateLimitError).retryAfterMs).toBe(61_000);
    // At the bound itself the wait is honoured.
    server.reply(failWith(429, 'slow down', { 'retry-after': '60' }), ok([]));
    await client.metrics.eval();
    expect(sleeps).toEqual([60_000]);
  });

  it('the last 429 carries retryAfterMs', async () => {
    const { client } = makeClient({ maxRetries: 0 });
    server.reply(failWith(429, 'slow down', { 'retry-after': '1.5' }));
    const err = await client.metrics.eval().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AqmRateLimitError);
    expect((err as AqmRateLimitError).retryAfterMs).toBe(1500);
  });
});

describe('no retry', () => {
  it.each([
    [400, AqmValidationError],
    [401, AqmAuthenticationError],
    [404, AqmNotFoundError],
    [409, AqmConflictError],
    [500, AqmServerError],
  ])('on %i', async (status, type) => {
    const { client, sleeps } = makeClient();
    server.reply(json(status, { success: false, message: 'no', errors: [] }));
    await expect(client.applications.update(APP, { name: 'x' })).rejects.toBeInstanceOf(type);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it.each([
    ['503', failWith(503)],
    ['429', failWith(429, 'slow', { 'retry-after': '0' })],
    ['a connection reset', reset],
  ])('for applications.create, even on %s', async (_label, handler) => {
    const { client } = makeClient({ maxRetries: 5 });
    server.reply(handler);
    await expect(client.applications.create({ name: 'once' })).rejects.toBeDefined();
    expect(server.requests).toHaveLength(1);
  });
});

describe('abort', () => {
  it('an already aborted signal rejects before anything is sent', async () => {
    const { client } = makeClient();
    const reason = new Error('stop');
    await expect(client.metrics.eval({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(server.requests).toHaveLength(0);
  });

  it('a long-lived signal passed to many requests keeps nothing of them', async () => {
    // AbortSignal.any() over a long-lived signal leaks on Node 20 and 22 (each combined signal stays
    // reachable from it), and an exporter passes one signal to every request of its lifetime.
    const any = vi.spyOn(AbortSignal, 'any');
    const { client } = makeClient();
    const controller = new AbortController();
    for (let i = 0; i < 20; i += 1) {
      server.reply(json(200, { success: true, data: { score: 1 } }));
      await client.metrics.eval({ signal: controller.signal });
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(any).not.toHaveBeenCalled();
    any.mockRestore();
  });

  it('aborting during a request rejects with the reason, without retry', async () => {
    const { client } = makeClient();
    server.reply(hang);
    const controller = new AbortController();
    const call = client.metrics.eval({ signal: controller.signal });
    await server.waitForRequests(1);
    const reason = new Error('user cancelled');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('aborting during the wait between attempts ends the wait at once', async () => {
    let sleeping: () => void = () => {};
    const asleep = new Promise<void>((resolve) => {
      sleeping = resolve;
    });
    const clock = {
      random: () => 1,
      sleep: (ms: number, signal?: AbortSignal) => {
        sleeping();
        return systemClock.sleep(ms, signal);
      },
    };
    const client = new AqmClient(
      withClock({ apiKey: 'k', baseUrl: server.baseUrl, initialRetryDelayMs: 600_000 }, clock),
    );
    clients.push(client);
    server.reply(failWith(503));
    const controller = new AbortController();
    const call = client.metrics.eval({ signal: controller.signal });
    await asleep;
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(1);
  });
});
