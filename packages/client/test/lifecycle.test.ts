import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { AqmClient, AqmConnectionError } from '../src/index.js';
import { withClock } from './helpers/clock.js';
import { ok, startTestServer } from './helpers/test-server.js';

const baseUrl = 'http://127.0.0.1:4000/api';

describe('dispatcher option', () => {
  it('sends through the given dispatcher (a MockAgent) and does not close it', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get('http://127.0.0.1:4000');
    pool
      .intercept({ path: '/api/metrics/eval', method: 'GET' })
      .reply(200, { success: true, data: [{ id: 'm' }] });
    pool
      .intercept({ path: '/api/metrics/security', method: 'GET' })
      .reply(200, { success: true, data: { pii: [] } });
    const client = new AqmClient({ apiKey: 'k', baseUrl, dispatcher: agent });
    await expect(client.metrics.eval()).resolves.toEqual([{ id: 'm' }]);
    await client.close();
    // The agent still works for its owner after the client is closed.
    const other = new AqmClient({ apiKey: 'k', baseUrl, dispatcher: agent });
    await expect(other.metrics.security()).resolves.toEqual({ pii: [] });
    agent.assertNoPendingInterceptors();
    await other.close();
    await agent.close();
  });

  it('a MockAgent network error is an AqmConnectionError', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('http://127.0.0.1:4000')
      .intercept({ path: '/api/widgets', method: 'GET' })
      .replyWithError(new Error('kaboom'))
      .times(3);
    const fast = { random: () => 0, sleep: async () => {} };
    const client = new AqmClient(withClock({ apiKey: 'k', baseUrl, dispatcher: agent }, fast));
    const err = await client.widgets.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AqmConnectionError);
    expect((err as Error).message).toContain('kaboom');
    agent.assertNoPendingInterceptors();
    await agent.close();
  });
});

describe('close()', () => {
  it('is idempotent, refuses new requests and releases the keep-alive connection', async () => {
    const server = await startTestServer();
    const client = new AqmClient({ apiKey: 'k', baseUrl: server.baseUrl });
    server.reply(ok([]));
    for (let i = 0; i < 4; i++) await client.metrics.eval();
    // Kept-alive connections are reused: fewer connections than requests.
    const ports = server.requests.map((r) => r.remotePort);
    expect(new Set(ports).size).toBeLessThan(ports.length);

    const first = client.close();
    expect(client.close()).toBe(first);
    await first;
    await client.close();
    await server.waitForNoConnections();
    const err = await client.metrics.eval().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AqmConnectionError);
    expect((err as Error).message).toBe('GET /metrics/eval: the client is closed');
    expect(server.requests).toHaveLength(4);
    await server.close();
  });

  it('lets a request in flight finish', async () => {
    const server = await startTestServer();
    const client = new AqmClient({ apiKey: 'k', baseUrl: server.baseUrl });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.reply((req, res) => {
      void held.then(() => ok([{ id: 'late' }])(req, res));
    });
    const call = client.widgets.list();
    await server.waitForRequests(1);
    const closing = client.close();
    release();
    await expect(call).resolves.toEqual([{ id: 'late' }]);
    await closing;
    await server.close();
  });
});
