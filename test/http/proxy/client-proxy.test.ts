import { inspect } from 'node:util';
import { AqmClient, AqmConnectionError } from '@aqm/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
// undici is a dependency of @aqm/client, not of the repository's root.
import { Agent } from '../../../packages/client/node_modules/undici/index.js';
import { rejection, type Service, startService } from '../client/helpers.js';
import { closedPort, hostPortOf, type LocalProxy, startLocalProxy } from './helpers/local-proxy.js';

const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'];

/** The environment of one test: every proxy variable cleared, then `env` set. */
function proxyEnv(env: Record<string, string>): void {
  for (const name of PROXY_VARIABLES) vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
}

// The client's own dispatcher honours HTTP_PROXY / HTTPS_PROXY / NO_PROXY, through a real proxy on
// loopback in front of the local service.
describe('AqmClient behind a proxy named by the environment', () => {
  let service: Service;
  let proxy: LocalProxy;
  let target: string;
  beforeAll(async () => {
    service = await startService();
    proxy = await startLocalProxy();
    target = hostPortOf(service.srv.url);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  afterAll(async () => {
    await proxy.close();
    await service.stop();
  });

  it('HTTP_PROXY: every call to an http: service goes through the proxy (a CONNECT tunnel)', async () => {
    proxyEnv({ HTTP_PROXY: proxy.url });
    const before = proxy.requestsTo(target).length;
    const client = service.clientWith({});
    await client.metrics.eval();
    await client.applications.list();
    const seen = proxy.requestsTo(target).slice(before);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.every((r) => r.method === 'CONNECT' && r.allowed)).toBe(true);
  });

  it('lowercase http_proxy works too', async () => {
    proxyEnv({ http_proxy: proxy.url });
    const before = proxy.requestsTo(target).length;
    await service.clientWith({}).metrics.eval();
    expect(proxy.requestsTo(target).length).toBeGreaterThan(before);
  });

  it.each([
    ['the host', () => '127.0.0.1'],
    ['host:port', () => target],
    ['*', () => '*'],
    ['a list with spaces', () => `internal.example, ${target}`],
  ])('NO_PROXY with %s: the call goes out directly', async (_label, noProxy) => {
    proxyEnv({ HTTP_PROXY: proxy.url, NO_PROXY: noProxy() });
    const before = proxy.requests.length;
    await service.clientWith({}).metrics.eval();
    expect(proxy.requests.length).toBe(before);
  });

  it('NO_PROXY naming another port of the host does not bypass the proxy', async () => {
    proxyEnv({ HTTP_PROXY: proxy.url, NO_PROXY: `127.0.0.1:${await closedPort()}` });
    const before = proxy.requestsTo(target).length;
    await service.clientWith({}).metrics.eval();
    expect(proxy.requestsTo(target).length).toBeGreaterThan(before);
  });

  it('HTTPS_PROXY: a call to an https: service asks the proxy for a tunnel to it', async () => {
    proxyEnv({ HTTPS_PROXY: proxy.url });
    const client = new AqmClient({ apiKey: service.key, baseUrl: 'https://aqm.invalid/api', maxRetries: 0 });
    try {
      // The proxy cannot reach aqm.invalid: what counts is that it was asked to.
      await rejection(client.metrics.eval(), AqmConnectionError);
      expect(proxy.requestsTo('aqm.invalid:443').length).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('a dispatcher passed in code wins over the variables', async () => {
    proxyEnv({ HTTP_PROXY: `http://127.0.0.1:${await closedPort()}` });
    const agent = new Agent();
    try {
      await service.clientWith({ dispatcher: agent }).metrics.eval();
    } finally {
      await agent.close();
    }
  });

  it('a malformed proxy URL: one warning naming the variable, not its password; the call goes out directly', async () => {
    proxyEnv({ HTTP_PROXY: 'http://user:s3cret-pw@[not-a-host' });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      await service.clientWith({}).metrics.eval();
      await service.clientWith({}).metrics.eval();
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    const ours = warnings.filter((w) => (w as { code?: string }).code === 'AQM_PROXY_ENV');
    expect(ours).toHaveLength(1);
    expect(ours[0]?.message).toContain('HTTP_PROXY');
    expect(ours[0]?.message).not.toContain('s3cret-pw');
  });

  it('a proxy that is down: AqmConnectionError naming the refused address, retried as any connection error', async () => {
    const port = await closedPort();
    proxyEnv({ HTTP_PROXY: `http://127.0.0.1:${port}` });
    const client = service.clientWith({ maxRetries: 1, initialRetryDelayMs: 1 });
    const before = service.srv.requestCount('metrics.eval');
    const error = await rejection(client.metrics.eval(), AqmConnectionError);
    expect(error.message).toContain('connection failed');
    expect(error.message).toContain(String(port));
    expect(service.srv.requestCount('metrics.eval')).toBe(before);
  });
});

describe('AqmClient behind a proxy that requires credentials', () => {
  let service: Service;
  let proxy: LocalProxy;
  let target: string;
  const credentials = { user: 'corp-user', password: 'p@ss:w0rd/secret' };
  beforeAll(async () => {
    service = await startService();
    proxy = await startLocalProxy({ credentials });
    target = hostPortOf(service.srv.url);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  afterAll(async () => {
    await proxy.close();
    await service.stop();
  });

  it('credentials in the proxy URL are sent as Proxy-Authorization', async () => {
    proxyEnv({ HTTPS_PROXY: 'http://unused.invalid:1', HTTP_PROXY: proxy.url });
    const before = proxy.requestsTo(target).length;
    await service.clientWith({}).metrics.eval();
    const seen = proxy.requestsTo(target).slice(before);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.every((r) => r.allowed && r.proxyAuthorization?.startsWith('Basic '))).toBe(true);
  });

  it('407 (wrong password): AqmConnectionError saying so, neither password nor API key shown', async () => {
    proxyEnv({ HTTP_PROXY: `http://corp-user:wrong-secret@127.0.0.1:${proxy.port}` });
    const client = service.clientWith({ maxRetries: 1, initialRetryDelayMs: 1 });
    const before = proxy.requestsTo(target).length;
    const error = await rejection(client.metrics.eval(), AqmConnectionError);
    expect(error.message).toContain('407');
    // Retried as any connection failure: two attempts, both refused by the proxy.
    expect(
      proxy
        .requestsTo(target)
        .slice(before)
        .map((r) => r.allowed),
    ).toEqual([false, false]);
    const shown = `${error.message} ${inspect(error)} ${JSON.stringify(error)} ${inspect(client)}`;
    for (const secret of ['wrong-secret', credentials.password, service.key])
      expect(shown).not.toContain(secret);
  });
});
