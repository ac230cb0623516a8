import { type FaultsConfig, type RunningServer, startServer } from '@aqm/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { caller, uniqueName } from './helpers.js';

const apiKeys = [{ key: 'k', projectId: 'p' }];

describe('faults', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof caller>;
  let appId: string;
  beforeAll(async () => {
    srv = await startServer({ apiKeys });
    call = caller(srv.url, 'k');
    appId = (await call('POST', '/applications', { json: { name: uniqueName('faults') } })).body.data.id;
  });
  afterEach(() => srv.setFaults(null));
  afterAll(() => srv.close());

  const submitPath = () => `/applications/${appId}/evaluations`;

  it('answers a chosen status on the chosen route only, with the error envelope', async () => {
    srv.setFaults({ rules: [{ route: 'evaluations.list', status: 503 }] });
    const res = await call('GET', submitPath());
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ success: false, message: expect.stringContaining('503') });
    expect((await call('GET', `/applications/${appId}`)).status).toBe(200);
  });

  it.each([500, 502, 504])('answers %i', async (status) => {
    srv.setFaults({ rules: [{ status }] });
    expect((await call('GET', '/widgets')).status).toBe(status);
  });

  it('answers 429 with Retry-After in seconds or as an HTTP date', async () => {
    srv.setFaults({ rules: [{ route: 'widgets.list', status: 429, retryAfter: 7 }] });
    const seconds = await call('GET', '/widgets');
    expect(seconds.status).toBe(429);
    expect(seconds.headers.get('retry-after')).toBe('7');
    const date = new Date(Date.now() + 60_000).toUTCString();
    srv.setFaults({ rules: [{ route: 'widgets.list', status: 429, retryAfter: date }] });
    const dated = await call('GET', '/widgets');
    expect(dated.headers.get('retry-after')).toBe(date);
  });

  it('comes before authentication, like the network in front of the service', async () => {
    srv.setFaults({ rules: [{ status: 502 }] });
    expect((await call('GET', '/widgets', { key: null })).status).toBe(502);
  });

  it('hits a reproducible share of requests with a seeded rate', async () => {
    const faults: FaultsConfig = { seed: 42, rules: [{ route: 'widgets.list', rate: 0.5, status: 503 }] };
    const statuses = async (config: FaultsConfig) => {
      srv.setFaults(config);
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push((await call('GET', '/widgets')).status);
      return out;
    };
    const first = await statuses(faults);
    const again = await statuses(faults);
    const otherSeed = await statuses({ ...faults, seed: 7 });
    expect(again).toEqual(first);
    expect(otherSeed).not.toEqual(first);
    const hits = first.filter((s) => s === 503).length;
    expect(first.every((s) => s === 503 || s === 200)).toBe(true);
    expect(hits).toBeGreaterThan(10);
    expect(hits).toBeLessThan(30);
    expect((await statuses({ rules: [{ rate: 0, status: 503 }] })).every((s) => s === 200)).toBe(true);
  });

  it('adds latency, then serves normally', async () => {
    srv.setFaults({ rules: [{ route: 'widgets.list', latencyMs: 250 }] });
    const started = performance.now();
    const res = await call('GET', '/widgets');
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    expect(res.status).toBe(200);
  });

  it('resets the connection', async () => {
    srv.setFaults({ rules: [{ route: 'widgets.list', reset: true }] });
    await expect(call('GET', '/widgets')).rejects.toThrow(/fetch failed/);
    srv.setFaults(null);
    expect((await call('GET', '/widgets')).status).toBe(200);
  });

  it('hangs until the client gives up', async () => {
    srv.setFaults({ rules: [{ route: 'widgets.list', hang: true }] });
    srv.resetRequestCounts();
    const controller = new AbortController();
    const pending = fetch(`${srv.url}/widgets`, { headers: { 'x-api-key': 'k' }, signal: controller.signal });
    await vi.waitFor(() => expect(srv.requestCount('widgets.list')).toBe(1));
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
  });

  it('switches an outage on and off at run time (setFaults), counting every request', async () => {
    srv.resetRequestCounts();
    srv.setFaults({ rules: [{ route: 'evaluations.list', status: 503 }] });
    expect((await call('GET', submitPath())).status).toBe(503);
    expect((await call('GET', submitPath())).status).toBe(503);
    srv.setFaults(null);
    expect((await call('GET', submitPath())).status).toBe(200);
    expect(srv.requestCount('evaluations.list')).toBe(3);
  });

  it('refuses bad fault rules with errors naming the field', () => {
    expect(() => srv.setFaults({ rules: [{ route: 'nope' as 'widgets.list', status: 500 }] })).toThrow(
      /faults\.rules\[0\]\.route must be a route name/,
    );
    expect(() => srv.setFaults({ rules: [{ status: 200 }] })).toThrow(
      /status must be an integer from 400 to 599, got 200/,
    );
    expect(() => srv.setFaults({ rules: [{ retryAfter: 5, latencyMs: 1 }] })).toThrow(
      /retryAfter needs a status/,
    );
    expect(() => srv.setFaults({ rules: [{ status: 429, retryAfter: 'soon' }] })).toThrow(
      /retryAfter must be/,
    );
    expect(() => srv.setFaults({ rules: [{ reset: true, hang: true }] })).toThrow(
      /at most one of status, reset, hang/,
    );
    expect(() => srv.setFaults({ rules: [{ rate: 0.5 }] })).toThrow(/must have an effect/);
    expect(() => srv.setFaults({ rules: [{ latencyMs: -1 }] })).toThrow(
      /latencyMs must be a finite number >= 0, got -1/,
    );
    expect(() => srv.setFaults({ seed: 1.5, rules: [] })).toThrow(/seed must be an integer, got 1.5/);
  });
});

describe('faults given at start, and close() with a hanging request', () => {
  it('applies options.faults from the start and closes without waiting for a hung request', async () => {
    const srv = await startServer({ apiKeys, faults: { rules: [{ route: 'metrics.eval', hang: true }] } });
    const pending = fetch(`${srv.url}/metrics/eval`, { headers: { 'x-api-key': 'k' } });
    const settled = pending.then(
      () => 'answered',
      () => 'failed',
    );
    await vi.waitFor(() => expect(srv.requestCount('metrics.eval')).toBe(1));
    await srv.close();
    expect(await settled).toBe('failed');
  });
});
