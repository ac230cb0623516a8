import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChild } from './helpers/run-child.js';
import { startTestService, type TestService } from './helpers/service.js';

// Issue 29 (cold start): importing @aqm/otel and ending the first span load neither undici nor the
// wire's zod schemas; the client comes with the first send, which still delivers, in both builds.
// A client that fails to load fails the send visibly, never the app.
const CHILDREN = {
  esm: fileURLToPath(new URL('./fixtures/lazy-client-child.mjs', import.meta.url)),
  cjs: fileURLToPath(new URL('./fixtures/lazy-client-child.cjs', import.meta.url)),
};
const NO_LOGGING = { OTEL_LOG_LEVEL: '', AQM_DISABLED: '', OTEL_SDK_DISABLED: '', FAIL_CLIENT_LOAD: '' };

describe('@aqm/otel loads its client on the first send', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService('lazy-client');
  });

  afterAll(async () => {
    await service?.close();
  });

  async function run(build: 'esm' | 'cjs', env: Record<string, string> = {}) {
    const applicationId = await service.createApp(`lazy-client-${build}`);
    const prompt = `lazy ${build} ${randomUUID()}`;
    const child = await runChild(CHILDREN[build], {
      ...NO_LOGGING,
      AQM_BASE_URL: service.srv.url,
      AQM_API_KEY: service.apiKey,
      AQM_APPLICATION_ID: applicationId,
      PROMPT: prompt,
      ...env,
    });
    expect(child.code, child.stderr).toBe(0);
    const { data } = await service.client.traces.list(applicationId, { limit: 10 });
    const loaded = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as {
      beforeSend: string[];
      afterSend: string[];
    };
    return { child, loaded, prompts: data.map((t) => t.prompt), prompt };
  }

  for (const build of ['esm', 'cjs'] as const) {
    it(`${build}: nothing of undici, zod or the client until the first send, which delivers the trace`, async () => {
      const { loaded, prompts, prompt, child } = await run(build);
      expect(loaded.beforeSend).toEqual([]);
      // The same check sees them once the client is there: it would have seen them before.
      expect(loaded.afterSend.some((path) => path.includes('/undici/'))).toBe(true);
      expect(loaded.afterSend.some((path) => path.includes('/zod/'))).toBe(true);
      expect(prompts).toEqual([prompt]);
      expect(child.stderr).toBe('');
    });

    it(`${build}: a client that fails to load fails the send with one line on stderr, not the app`, async () => {
      const { prompts, child } = await run(build, { FAIL_CLIENT_LOAD: '1' });
      expect(prompts).toEqual([]);
      const lines = child.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^@aqm\/otel: Traces were dropped .*@aqm\/client \(made to fail by the test\)/,
      );
    });
  }
});
