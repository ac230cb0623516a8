import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { AqmSpanProcessor } from '@aqm/otel';
import { diag } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureDiag } from '../otel/helpers/capture-diag.js';
import { endLlmTraces, providerWith } from '../otel/helpers/llm-trace.js';
import { runChild } from '../otel/helpers/run-child.js';
import { sameMembers, startTestService, storedTraces, type TestService } from '../otel/helpers/service.js';
import { waitFor } from '../otel/helpers/wait.js';
import { closedPort, hostPortOf, type LocalProxy, startLocalProxy } from './helpers/local-proxy.js';

const SCRIPT = fileURLToPath(new URL('../otel/fixtures/script-exit-child.mjs', import.meta.url));
/** No logging set up in the child, and no proxy variable of the test's own environment. */
const CLEAN = {
  OTEL_LOG_LEVEL: '',
  AQM_DISABLED: '',
  OTEL_SDK_DISABLED: '',
  HTTP_PROXY: '',
  HTTPS_PROXY: '',
  NO_PROXY: '',
  http_proxy: '',
  https_proxy: '',
  no_proxy: '',
};

describe('@aqm/otel behind a proxy named by the environment', () => {
  let service: TestService;
  let proxy: LocalProxy;
  let target: string;
  beforeAll(async () => {
    service = await startTestService('proxy');
    proxy = await startLocalProxy({ credentials: { user: 'otel', password: 'otel-proxy-secret' } });
    target = hostPortOf(service.srv.url);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    diag.disable();
  });
  afterAll(async () => {
    await proxy.close();
    await service?.close();
  });

  async function runScript(env: Record<string, string>) {
    const applicationId = await service.createApp('proxy-script');
    const prompt = `via proxy ${randomUUID()}`;
    const child = await runChild(SCRIPT, {
      ...CLEAN,
      AQM_BASE_URL: service.srv.url,
      AQM_API_KEY: service.apiKey,
      AQM_APPLICATION_ID: applicationId,
      PROMPT: prompt,
      ...env,
    });
    const { data } = await service.client.traces.list(applicationId, { limit: 10 });
    return { child, prompts: data.map((t) => t.prompt), prompt };
  }

  it('a process with HTTP_PROXY (credentials in it) delivers its trace through the proxy', async () => {
    const before = proxy.requestsTo(target).length;
    const { child, prompts, prompt } = await runScript({ HTTP_PROXY: proxy.url });
    expect(child.code, child.stderr).toBe(0);
    expect(child.stderr).toBe('');
    expect(prompts).toEqual([prompt]);
    const seen = proxy.requestsTo(target).slice(before);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.every((r) => r.method === 'CONNECT' && r.allowed)).toBe(true);
  });

  it('NO_PROXY naming the service: delivered directly', async () => {
    const before = proxy.requests.length;
    const { child, prompts, prompt } = await runScript({ HTTP_PROXY: proxy.url, NO_PROXY: target });
    expect(child.code, child.stderr).toBe(0);
    expect(prompts).toEqual([prompt]);
    expect(proxy.requests.length).toBe(before);
  });

  it('a malformed HTTP_PROXY: one warning naming it (not its password), tracing off, the app unharmed', async () => {
    const { child, prompts } = await runScript({ HTTP_PROXY: 'http://otel:pw-in-bad-url@[::bad' });
    expect(child.code, child.stderr).toBe(0);
    const lines = child.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines, child.stderr).toHaveLength(1);
    expect(lines[0]).toContain('HTTP_PROXY');
    expect(child.stderr).not.toContain('pw-in-bad-url');
    expect(child.stderr).not.toContain(service.apiKey);
    expect(prompts).toEqual([]);
  });

  it('the proxy down: a script says at its end that its trace was not delivered, naming the refused proxy', async () => {
    const port = await closedPort();
    const { child, prompts } = await runScript({
      HTTP_PROXY: `http://otel:otel-proxy-secret@127.0.0.1:${port}`,
    });
    expect(child.code, child.stderr).toBe(0);
    const lines = child.stderr.split('\n').filter((line) => line.startsWith('@aqm/otel'));
    expect(lines, child.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/1 trace\(s\) were not delivered before shutdown/);
    expect(lines[0]).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(child.stderr).not.toContain('otel-proxy-secret');
    expect(prompts).toEqual([]);
  });

  it('the proxy down: traces are kept and retried, and delivered once the proxy is up', async () => {
    const port = await closedPort();
    vi.stubEnv('HTTP_PROXY', `http://otel:otel-proxy-secret@127.0.0.1:${port}`);
    const applicationId = await service.createApp('proxy-down');
    const processor = new AqmSpanProcessor({
      apiKey: service.apiKey,
      baseUrl: service.srv.url,
      applicationId,
    });
    const provider = providerWith(processor);
    let lateProxy: LocalProxy | undefined;
    try {
      const produced = endLlmTraces(provider.getTracer('proxy'), 5, 'down');
      await waitFor(() => processor.stats().retries > 0, 'a retried request');
      expect(processor.stats().queuedTraces).toBe(produced.length);
      expect(processor.stats().droppedTraces.total).toBe(0);
      lateProxy = await startLocalProxy({
        port,
        credentials: { user: 'otel', password: 'otel-proxy-secret' },
      });
      await provider.forceFlush();
      expect(processor.stats().exportedTraces).toBe(produced.length);
      expect(lateProxy.requestsTo(target).length).toBeGreaterThanOrEqual(1);
      const stored = await storedTraces(service.client, applicationId);
      expect(sameMembers(stored.traceIds, new Set(produced))).toBe(true);
    } finally {
      await provider.shutdown();
      await lateProxy?.close();
    }
  });

  it('407 from the proxy: retried like an unreachable service, and said at shutdown (no password shown)', async () => {
    const logs = captureDiag();
    vi.stubEnv('HTTP_PROXY', `http://otel:wrong-otel-secret@127.0.0.1:${proxy.port}`);
    const applicationId = await service.createApp('proxy-407');
    const processor = new AqmSpanProcessor({
      apiKey: service.apiKey,
      baseUrl: service.srv.url,
      applicationId,
      shutdownTimeoutMs: 200,
    });
    const provider = providerWith(processor);
    const before = proxy.requestsTo(target).length;
    const produced = endLlmTraces(provider.getTracer('proxy'), 3, '407');
    await waitFor(() => processor.stats().retries > 0, 'a retried request');
    expect(processor.stats().queuedTraces).toBe(produced.length);
    expect(processor.stats().droppedTraces.total).toBe(0);
    expect(
      proxy
        .requestsTo(target)
        .slice(before)
        .every((r) => !r.allowed),
    ).toBe(true);
    await provider.shutdown();
    const errors = logs.at('error');
    expect(errors, logs.text).toHaveLength(1);
    expect(errors[0]).toMatch(/3 trace\(s\) were not delivered before shutdown/);
    expect(errors[0]).toContain('Proxy response (407)');
    expect(logs.text).not.toContain('wrong-otel-secret');
    expect(logs.text).not.toContain(service.apiKey);
  });
});
