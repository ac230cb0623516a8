import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AppDir, createAppDir } from '../auto/helpers/app-dir.js';
import { exitHoldMs, killRunningApps, lastJsonLine, runApp } from '../auto/helpers/run-app.js';
import { startSilentServer } from '../auto/helpers/silent-server.js';
import { type Stack, startStack } from '../auto/helpers/stack.js';
import { closedPort, hostPortOf, type LocalProxy, startLocalProxy } from './helpers/local-proxy.js';

/** The README's default of AQM_FLUSH_TIMEOUT_MS (left unset here), and room for a loaded machine. */
const DOCUMENTED_BOUND_MS = 5000;
const LOAD_MARGIN_MS = 2500;
const OPENAI_APP = ['--import', '@aqm/auto/register', 'openai-app.mjs'];

let stack: Stack;
let app: AppDir;
let proxy: LocalProxy;
const credentials = { user: 'auto', password: 'auto-proxy-secret' };
beforeAll(async () => {
  stack = await startStack();
  app = createAppDir();
  proxy = await startLocalProxy({ credentials });
});
afterEach(() => killRunningApps());
afterAll(async () => {
  await proxy?.close();
  await stack?.close();
  app?.remove();
});

/** The app's environment: the fake model reached directly, the service through `proxyUrl`. */
function envWith(proxyUrl: string, extra: Record<string, string>): Record<string, string> {
  return { ...stack.env(extra), HTTP_PROXY: proxyUrl, NO_PROXY: hostPortOf(stack.llm.url) };
}

describe('node --import @aqm/auto/register behind a proxy named by HTTP_PROXY', () => {
  it('looks the application up and sends its traces through the proxy, then exits at once', async () => {
    const name = `proxied-${Date.now()}`;
    const before = proxy.requestsTo(hostPortOf(stack.url)).length;
    const run = await runApp(app.dir, OPENAI_APP, envWith(proxy.url, { AQM_APPLICATION_NAME: name }));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const seen = proxy.requestsTo(hostPortOf(stack.url)).slice(before);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.every((r) => r.method === 'CONNECT' && r.allowed)).toBe(true);
    const page = await stack.client.applications.list({ search: name });
    const id = page.data.find((a) => a.name === name)?.id;
    expect(id).toBeDefined();
    expect(await stack.traces(id as string)).toHaveLength(2);
    // Its kept-alive tunnel does not hold the app: it ends well within the flush bound.
    console.info(`[auto via proxy] exit ${exitHoldMs(run)} ms after the app's work`);
    expect(exitHoldMs(run), run.stderr).toBeLessThan(DOCUMENTED_BOUND_MS);
  });

  it.each([
    [
      'down (connections refused)',
      async () => ({ url: `http://127.0.0.1:${await closedPort()}`, close: async () => {} }),
    ],
    ['silent (never answers the CONNECT)', startSilentServer],
  ] as const)(
    'a proxy %s: the app ends within AQM_FLUSH_TIMEOUT_MS, saying its traces were not delivered',
    async (label, start) => {
      const bad = await start();
      try {
        const run = await runApp(
          app.dir,
          OPENAI_APP,
          envWith(bad.url, { AQM_APPLICATION_ID: await stack.createApplication(`proxy-bad-${Date.now()}`) }),
        );
        expect(run.code, run.stderr).toBe(0);
        expect(lastJsonLine<{ answers: string[] }>(run).answers).toHaveLength(2);
        console.info(`[auto, proxy ${label}] exit ${exitHoldMs(run)} ms after the app's work`);
        expect(exitHoldMs(run), run.stderr).toBeLessThan(DOCUMENTED_BOUND_MS + LOAD_MARGIN_MS);
        expect(run.stderr).toMatch(/trace\(s\) were (not delivered before|lost at) shutdown/);
        expect(run.stderr).not.toContain(stack.env().AQM_API_KEY);
      } finally {
        await bad.close();
      }
    },
  );

  it('a malformed HTTPS_PROXY: one warning naming it (not its password), @aqm/auto off, the app unharmed', async () => {
    const run = await runApp(app.dir, OPENAI_APP, {
      ...stack.env({ AQM_APPLICATION_NAME: 'never-created' }),
      HTTPS_PROXY: 'http://auto:pw-in-bad-url@[bad',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(lastJsonLine<{ answers: string[] }>(run).answers).toHaveLength(2);
    const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toContain('HTTPS_PROXY');
    expect(run.stderr).not.toContain('pw-in-bad-url');
  });
});
