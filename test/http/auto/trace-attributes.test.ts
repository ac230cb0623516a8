import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { type AppDir, createAppDir } from './helpers/app-dir.js';
import { killRunningApps, lastJsonLine, runApp } from './helpers/run-app.js';
import { type Stack, startStack } from './helpers/stack.js';

let stack: Stack;
let app: AppDir;
beforeAll(async () => {
  stack = await startStack();
  app = createAppDir();
});
afterEach(() => killRunningApps());
afterAll(async () => {
  await stack?.close();
  app?.remove();
});

it('node --import @aqm/auto/register: withAqmAttributes (from @aqm/auto) reaches the instrumented openai call', async () => {
  const applicationId = await stack.createApplication('auto attributes');
  const run = await runApp(
    app.dir,
    ['--import', '@aqm/auto/register', 'attributes-app.mjs'],
    stack.env({ AQM_APPLICATION_ID: applicationId }),
  );
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const { answer } = lastJsonLine<{ answer: string }>(run);
  const traces = await stack.traces(applicationId);
  expect(traces).toHaveLength(1);
  expect(traces[0]).toMatchObject({
    prompt: 'Who am I talking to?',
    response: answer,
    userId: 'auto-user',
    sessionId: 'auto-session',
    metadata: { tenant: 'acme', 'aqm.tags': '["auto"]' },
  });
});
