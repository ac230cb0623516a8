import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChild } from './helpers/run-child.js';
import { startTestService, type TestService } from './helpers/service.js';

const CHILD = fileURLToPath(new URL('./fixtures/script-exit-child.mjs', import.meta.url));
const NO_LOGGING = { OTEL_LOG_LEVEL: '', AQM_DISABLED: '', OTEL_SDK_DISABLED: '' };

describe('a script set up with registerAqm() that ends without calling shutdown()', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService('script-exit');
  });

  afterAll(async () => {
    await service?.close();
  });

  async function run(flushOnExit: boolean) {
    const applicationId = await service.createApp(`script-exit-${flushOnExit}`);
    const prompt = `script ${randomUUID()}`;
    const child = await runChild(CHILD, {
      ...NO_LOGGING,
      AQM_BASE_URL: service.srv.url,
      AQM_API_KEY: service.apiKey,
      AQM_APPLICATION_ID: applicationId,
      PROMPT: prompt,
      FLUSH_ON_EXIT: String(flushOnExit),
    });
    expect(child.code, child.stderr).toBe(0);
    const { data } = await service.client.traces.list(applicationId, { limit: 10 });
    return { child, prompts: data.map((t) => t.prompt), prompt };
  }

  it('delivers its trace before the process exits (beforeExit flush)', async () => {
    const { prompts, prompt, child } = await run(true);
    expect(prompts).toEqual([prompt]);
    expect(child.stderr).toBe('');
  });

  it('with flushOnExit: false, exits as before, without sending it', async () => {
    const { prompts } = await run(false);
    expect(prompts).toEqual([]);
  });
});
