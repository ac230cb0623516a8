import { AqmClient } from '@aqm/client';
import { withLlmSpan } from '@aqm/otel';
import { type RunningServer, startServer } from '@aqm/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startAuto } from '../src/start-auto.js';
import { registeredProvider } from '../src/tracing/registered-provider.js';
import type { AutoHandle } from '../src/types.js';

const KEY = 'auto-unit-key-5e1b';
let server: RunningServer;
let client: AqmClient;
let handles: AutoHandle[] = [];
let warnings: string[];

beforeAll(async () => {
  server = await startServer({ port: 0, apiKeys: [{ key: KEY, projectId: 'auto-unit' }] });
  client = new AqmClient({ apiKey: KEY, baseUrl: server.url });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
beforeEach(() => {
  warnings = [];
  vi.spyOn(console, 'warn').mockImplementation((message: unknown) => {
    warnings.push(String(message));
  });
});
afterEach(async () => {
  for (const handle of handles) await handle.shutdown();
  handles = [];
  vi.restoreAllMocks();
});

/** Starts in-process (no exit hooks in a test runner), shut down after the test. */
function start(env: Record<string, string>): AutoHandle {
  const handle = startAuto({ AQM_API_KEY: KEY, AQM_BASE_URL: server.url, ...env }, { exitHooks: false });
  handles.push(handle);
  return handle;
}

describe('startAuto in-process', () => {
  it('finds or creates the application by name, and sends what the app records meanwhile', async () => {
    const auto = start({ AQM_APPLICATION_NAME: 'in-process bot', AQM_ENVIRONMENT: 'test' });
    // Tracing runs before the id is known.
    expect(registeredProvider()).toBeDefined();
    const traceId = await withLlmSpan(
      { model: 'gpt-4o-mini', provider: 'openai', prompt: 'Early call?' },
      (span) => {
        span.setResponse('Kept.').setUsage({ inputTokens: 2, outputTokens: 1 });
        return span.span.spanContext().traceId;
      },
    );
    const status = await auto.ready;
    expect(status).toEqual({ enabled: true, applicationId: expect.any(String) });
    if (!status.enabled || status.applicationId === undefined) return;
    await auto.forceFlush();
    const trace = await client.traces.get(status.applicationId, traceId);
    expect(trace).toMatchObject({ prompt: 'Early call?', response: 'Kept.', environment: 'test' });
    const [application] = (await client.applications.list({ search: 'in-process bot' })).data;
    expect(application?.id).toBe(status.applicationId);
    expect(warnings).toEqual([]);
  });

  it('shutdown() takes everything down, after which it can start again', async () => {
    const first = start({ AQM_APPLICATION_NAME: 'restartable' });
    await first.ready;
    expect(process.env.ANTHROPIC_OPEN_TELEMETRY).toBe('false');
    await first.shutdown();
    expect(registeredProvider()).toBeUndefined();
    expect(process.env.ANTHROPIC_OPEN_TELEMETRY).toBeUndefined();
    const second = start({ AQM_APPLICATION_NAME: 'restartable' });
    await expect(second.ready).resolves.toMatchObject({ enabled: true });
    expect(registeredProvider()).toBeDefined();
  });

  it('a second start while one runs warns once and does nothing', async () => {
    start({ AQM_APPLICATION_NAME: 'only once' });
    const again = start({ AQM_APPLICATION_NAME: 'only once' });
    await expect(again.ready).resolves.toEqual({ enabled: false, reason: 'already running' });
    expect(warnings).toEqual([
      '@aqm/auto: already running in this process (preloaded, or started twice); this call does nothing.',
    ]);
  });

  it('an application id the service does not know: one warning, and it takes itself down', async () => {
    const id = '0f8e2d4c-6b1a-4c3e-9d7f-5a2b8c1e4d6f';
    const auto = start({ AQM_APPLICATION_ID: id });
    const status = await auto.ready;
    expect(status).toEqual({
      enabled: false,
      reason: `The service does not know application ${id} (AQM_APPLICATION_ID), or AQM_API_KEY cannot access it (404)`,
    });
    expect(warnings).toHaveLength(1);
    await auto.shutdown(); // the one started in the background; resolves once it is done
    expect(registeredProvider()).toBeUndefined();
  });

  it('a missing key: one warning, and a handle that does nothing', async () => {
    const auto = startAuto({ AQM_BASE_URL: server.url, AQM_APPLICATION_NAME: 'x' }, { exitHooks: false });
    await expect(auto.ready).resolves.toEqual({ enabled: false, reason: 'AQM_API_KEY is not set' });
    await expect(auto.instrumented).resolves.toBeUndefined();
    await expect(auto.forceFlush()).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^@aqm\/auto: AQM_API_KEY is not set/);
    expect(registeredProvider()).toBeUndefined();
  });

  it('AQM_DISABLED=true: no warning at all', async () => {
    const auto = startAuto({ AQM_DISABLED: 'true' }, { exitHooks: false });
    await expect(auto.ready).resolves.toEqual({ enabled: false, reason: 'AQM_DISABLED is true' });
    expect(warnings).toEqual([]);
  });

  it('an AQM_BASE_URL the client would refuse (plain http to a remote host) is one warning naming the variable', async () => {
    const auto = startAuto(
      { AQM_API_KEY: KEY, AQM_BASE_URL: 'http://aqm.example.com/api', AQM_APPLICATION_NAME: 'x' },
      { exitHooks: false },
    );
    await expect(auto.ready).resolves.toMatchObject({ enabled: false });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^@aqm\/auto: AQM_BASE_URL is refused: it uses plain http to a non-loopback host \(aqm\.example\.com\)/,
    );
    expect(warnings[0]).not.toContain('allowInsecureHttp');
    expect(warnings[0]).not.toContain(KEY);
    expect(registeredProvider()).toBeUndefined();
  });

  it('refuses wrong options with an error naming them', () => {
    expect(() => startAuto({}, { exitHook: true } as never)).toThrow(
      'Unknown option `exitHook`; known options are esmLoaderHook, exitHooks',
    );
    expect(() => startAuto({}, { exitHooks: 'no' } as never)).toThrow(
      'Expected `exitHooks` to be a boolean, got `no` (string)',
    );
  });
});
