import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectSpillFolder } from '@aqm/otel/spill';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AppDir, createAppDir } from './helpers/app-dir.js';
import { killRunningApps, lastJsonLine, runApp, startApp } from './helpers/run-app.js';
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

describe.each(['SIGTERM', 'SIGINT'] as const)('exit behaviour on %s', (signal) => {
  it(`an app without a ${signal} listener still ends by the signal, after its traces were flushed`, async () => {
    const applicationId = await stack.createApplication(`${signal} default`);
    const running = startApp(
      app.dir,
      LONG_RUNNING,
      stack.env({ AQM_APPLICATION_ID: applicationId, PROMPT_ONE: `app killed by ${signal}` }),
    );
    await running.waitForOutput('ready');
    running.child.kill(signal);
    const run = await running.exited;

    // Ended by the signal, as without @aqm/auto: no exit code, that signal.
    expect(run).toMatchObject({ code: null, signal, stderr: '' });
    const traces = await stack.traces(applicationId);
    expect(traces.map((trace) => trace.prompt)).toEqual([`app killed by ${signal}`]);
    expect(traces[0]?.response).not.toBe('');
  });

  it(`an app's own ${signal} handler runs and decides: here it stops gracefully with code 0`, async () => {
    const applicationId = await stack.createApplication(`${signal} own handler`);
    const running = startApp(
      app.dir,
      LONG_RUNNING,
      stack.env({
        AQM_APPLICATION_ID: applicationId,
        OWN_SIGNAL_HANDLER: signal,
        PROMPT_ONE: `graceful app (${signal})`,
      }),
    );
    await running.waitForOutput('ready');
    running.child.kill(signal);
    const run = await running.exited;

    expect(run).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(run.stdout).toContain('app handler ran');
    expect((await stack.traces(applicationId)).map((trace) => trace.prompt)).toEqual([
      `graceful app (${signal})`,
    ]);
  });
});

describe('exit behaviour when the service does not answer', () => {
  it('the flush at exit gives up after AQM_FLUSH_TIMEOUT_MS: the app still ends, with its own exit code', async () => {
    const applicationId = await stack.createApplication('hanging service');
    stack.server.setFaults({ rules: [{ route: 'evaluations.submit', hang: true }] });
    try {
      const flushTimeoutMs = 300;
      const run = await runApp(
        app.dir,
        ['--import', '@aqm/auto/register', 'openai-app.mjs'],
        stack.env({ AQM_APPLICATION_ID: applicationId, AQM_FLUSH_TIMEOUT_MS: String(flushTimeoutMs) }),
      );
      // Without the bound, pending retries would hold the process for minutes (the test would time out).
      expect(run).toMatchObject({ code: 0, signal: null });
      // The loss is said, even with no logging set up.
      expect(run.stderr).toBe(
        '@aqm/otel: 2 trace(s) were lost at shutdown: the service had not answered in time. ' +
          'Set persistDir (AQM_PERSIST_DIR) to keep such traces on disk.\n',
      );
      // What is bounded is the time from the end of the app's own work (`doneAt`, logged by the app
      // after its last call) to its exit, not the process's whole life: its start (loading openai
      // and OpenTelemetry) takes many seconds on a busy machine and says nothing about the flush.
      // Past `doneAt`, the exit flush and the shutdown after it take the bound in all; a request in
      // flight no longer holds the process (its socket is unref'd), so the client's 10 s request
      // time limit, which alone held it once, cannot either. The margin absorbs a loaded machine
      // (timers firing late, a slow teardown).
      const loadMarginMs = 5000;
      const { doneAt } = lastJsonLine<{ doneAt: number }>(run);
      expect(run.exitedAt - doneAt).toBeLessThan(flushTimeoutMs + loadMarginMs);
      expect(await stack.traces(applicationId)).toEqual([]);
    } finally {
      stack.server.setFaults(null);
    }
  });
});

describe('a signal during an outage', () => {
  it('with AQM_PERSIST_DIR, the traces held are on disk before the signal ends the process', async () => {
    const applicationId = await stack.createApplication('signal in an outage');
    const persistDir = mkdtempSync(join(tmpdir(), 'aqm-auto-persist-'));
    stack.server.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
    try {
      const running = startApp(
        app.dir,
        LONG_RUNNING,
        stack.env({
          AQM_APPLICATION_ID: applicationId,
          AQM_PERSIST_DIR: persistDir,
          // 1 s of it is kept for the disk: writing and syncing a file took 200 ms on a loaded VM.
          AQM_FLUSH_TIMEOUT_MS: '4000',
          PROMPT_ONE: 'kept through an outage',
        }),
      );
      await running.waitForOutput('ready');
      running.child.kill('SIGTERM');
      const run = await running.exited;
      // The one line that says traces went to disk (issue #28): how many, where and why.
      expect(run).toMatchObject({
        code: null,
        signal: 'SIGTERM',
        stderr:
          `@aqm/otel: Writing traces to persistDir ${persistDir} (they were not delivered by shutdown): 1 so far. ` +
          'They are sent from there once the service takes them, by this process or the next one on the ' +
          'folder; stats().disk counts what is written and sent back\n',
      });
      // Before, the processor's shutdown had the same bound as the signal's: the signal ended the
      // process as the shutdown began to write, and the trace was lost.
      const report = await inspectSpillFolder(persistDir);
      const onDisk = report.waiting.traces + report.owners.reduce((sum, owner) => sum + owner.traces, 0);
      expect(onDisk).toBe(1);
    } finally {
      stack.server.setFaults(null);
      rmSync(persistDir, { recursive: true, force: true });
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
