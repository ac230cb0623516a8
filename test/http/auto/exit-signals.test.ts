import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AppDir, createAppDir } from './helpers/app-dir.js';
import { killRunningApps, runApp, startApp } from './helpers/run-app.js';
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

const LONG_RUNNING = ['--import', '@aqm/auto/register', 'long-running-app.mjs'];

describe('exit behaviour on SIGTERM', () => {
  it('an app without a SIGTERM listener still ends by the signal, after its traces were flushed', async () => {
    const applicationId = await stack.createApplication('sigterm default');
    const running = startApp(
      app.dir,
      LONG_RUNNING,
      stack.env({ AQM_APPLICATION_ID: applicationId, PROMPT_ONE: 'killed app' }),
    );
    await running.waitForOutput('ready');
    running.child.kill('SIGTERM');
    const run = await running.exited;

    // Ended by the signal, as without @aqm/auto: no exit code, signal SIGTERM.
    expect(run).toMatchObject({ code: null, signal: 'SIGTERM', stderr: '' });
    const traces = await stack.traces(applicationId);
    expect(traces.map((trace) => trace.prompt)).toEqual(['killed app']);
    expect(traces[0]?.response).not.toBe('');
  });

  it("an app's own SIGTERM handler runs and decides: here it stops gracefully with code 0", async () => {
    const applicationId = await stack.createApplication('sigterm own handler');
    const running = startApp(
      app.dir,
      LONG_RUNNING,
      stack.env({ AQM_APPLICATION_ID: applicationId, OWN_SIGTERM_HANDLER: '1', PROMPT_ONE: 'graceful app' }),
    );
    await running.waitForOutput('ready');
    running.child.kill('SIGTERM');
    const run = await running.exited;

    expect(run).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(run.stdout).toContain('app handler ran');
    expect((await stack.traces(applicationId)).map((trace) => trace.prompt)).toEqual(['graceful app']);
  });
});

describe('exit behaviour when the service does not answer', () => {
  it('the flush at exit gives up after AQM_FLUSH_TIMEOUT_MS: the app still ends, with its own exit code', async () => {
    const applicationId = await stack.createApplication('hanging service');
    stack.server.setFaults({ rules: [{ route: 'evaluations.submit', hang: true }] });
    try {
      const startedAt = Date.now();
      const run = await runApp(
        app.dir,
        ['--import', '@aqm/auto/register', 'openai-app.mjs'],
        stack.env({ AQM_APPLICATION_ID: applicationId, AQM_FLUSH_TIMEOUT_MS: '300' }),
      );
      // Without the bound, pending retries would hold the process for minutes (the test would time out).
      expect(run).toMatchObject({ code: 0, signal: null, stderr: '' });
      // A request in flight times out after the bound too (at least 1 s): without that, it alone held
      // the process for the client's 10 s.
      expect(Date.now() - startedAt).toBeLessThan(8000);
      expect(await stack.traces(applicationId)).toEqual([]);
    } finally {
      stack.server.setFaults(null);
    }
  });
});

describe('beforeExit that does not mean the end', () => {
  it('work the app starts from its own beforeExit listener is traced and flushed too', async () => {
    const applicationId = await stack.createApplication('before exit work');
    const run = await runApp(
      app.dir,
      ['--import', '@aqm/auto/register', 'before-exit-work-app.mjs'],
      stack.env({ AQM_APPLICATION_ID: applicationId }),
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('late call done');
    const prompts = (await stack.traces(applicationId)).map((trace) => trace.prompt).sort();
    expect(prompts).toEqual(['Asked during the run', 'Asked from beforeExit']);
  });
});
