import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AqmClient } from '@aqm/client';
import { inspectSpillFolder } from '@aqm/otel/spill';
import type { RunningServer } from '@aqm/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lateService } from '../otel/helpers/late-service.js';
import { type AppDir, createAppDir } from './helpers/app-dir.js';
import { killRunningApps, runApp, startApp } from './helpers/run-app.js';
import { API_KEY, type Stack, startStack } from './helpers/stack.js';

const outage = lateService([{ key: API_KEY, projectId: 'auto-lookup-outage' }]);
let stack: Stack;
let app: AppDir;
const dirs: string[] = [];
beforeAll(async () => {
  stack = await startStack();
  app = createAppDir();
});
afterEach(async () => {
  killRunningApps();
  await outage.closeAll();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterAll(async () => {
  await stack?.close();
  app?.remove();
});

async function spilledTraces(dir: string): Promise<number> {
  const report = await inspectSpillFolder(dir);
  return report.waiting.traces + report.owners.reduce((sum, owner) => sum + owner.traces, 0);
}

/** The prompts the service holds for the application named `name`. */
async function storedPrompts(server: RunningServer, name: string): Promise<string[]> {
  const client = new AqmClient({ apiKey: API_KEY, baseUrl: server.url });
  try {
    const application = (await client.applications.list({ search: name })).data.find(
      (candidate) => candidate.name === name,
    );
    if (application === undefined) return [];
    const prompts: string[] = [];
    for await (const summary of client.traces.iterate(application.id)) {
      prompts.push((await client.traces.get(application.id, summary.traceId)).prompt);
    }
    return prompts.sort();
  } finally {
    await client.close();
  }
}

/** Resolves once `condition` holds, polling every 100 ms; rejects naming `what` after `timeoutMs`. */
async function pollUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Two app runs (a full Node start each, openai and OpenTelemetry loaded), on a possibly loaded machine. */
const TWO_RUNS_TIMEOUT_MS = 90_000;

describe('AQM_APPLICATION_NAME while the service is down at start', () => {
  it(
    'with AQM_PERSIST_DIR, the traces go to disk at exit, and a later run delivers them to the application found by name',
    async () => {
      const port = await outage.stoppedPort();
      const name = `down-at-start-${randomUUID()}`;
      const persistDir = mkdtempSync(join(tmpdir(), 'aqm-auto-lookup-'));
      dirs.push(persistDir);
      const env = stack.env({
        AQM_BASE_URL: `http://127.0.0.1:${port}/api`,
        AQM_APPLICATION_NAME: name,
        AQM_PERSIST_DIR: persistDir,
        AQM_FLUSH_TIMEOUT_MS: '3000',
        PROMPT_ONE: 'first run, one',
        PROMPT_TWO: 'first run, two',
      });
      const first = await runApp(app.dir, ['--import', '@aqm/auto/register', 'openai-app.mjs'], env);
      expect(first.code).toBe(0);
      // One line for the one failure: its cause and where the traces are (before: @aqm/auto's line
      // at start, the disk's line and this one, three lines for one outage).
      expect(first.stderr).toBe(
        '@aqm/otel: forceFlush() stopped waiting for delivery at its bound, flushTimeoutMs (3000 ms); last ' +
          `error: AqmConnectionError: GET /applications: connection failed: connect ECONNREFUSED 127.0.0.1:${port} ` +
          `(ECONNREFUSED). 2 trace(s) not delivered yet were written to persistDir (${persistDir}). They are ` +
          'sent from there once the service answers, by this process or the next one using the folder.\n',
      );
      expect(await spilledTraces(persistDir)).toBe(2);

      const server = await outage.startOn(port);
      // A second run of a long-running app: it replays the folder while it runs.
      const second = startApp(app.dir, ['--import', '@aqm/auto/register', 'long-running-app.mjs'], {
        ...env,
        PROMPT_ONE: 'second run',
      });
      await second.waitForOutput('ready');
      // Delivered while the second app still runs (its own trace stays open until it ends).
      await pollUntil(
        async () => (await storedPrompts(server, name)).length >= 2,
        'the traces of the first run delivered',
      );
      second.child.kill('SIGTERM');
      const run = await second.exited;
      expect(run.stderr).toBe(
        `@aqm/otel: Delivered 2 trace(s) from persistDir ${persistDir}; nothing waits there any more\n`,
      );
      expect(await storedPrompts(server, name)).toEqual(['first run, one', 'first run, two', 'second run']);
      expect(await spilledTraces(persistDir)).toBe(0);
    },
    TWO_RUNS_TIMEOUT_MS,
  );

  it('a long-running app sends its traces once the service it could not reach at start answers', async () => {
    const port = await outage.stoppedPort();
    const name = `down-then-up-${randomUUID()}`;
    const running = startApp(
      app.dir,
      ['--import', '@aqm/auto/register', 'long-running-app.mjs'],
      stack.env({
        AQM_BASE_URL: `http://127.0.0.1:${port}/api`,
        AQM_APPLICATION_NAME: name,
        AQM_FLUSH_TIMEOUT_MS: '10000',
        OTEL_LOG_LEVEL: 'debug',
        PROMPT_ONE: 'asked while the service was down',
      }),
    );
    await running.waitForOutput('ready');
    // The startup lookup is over (failed) before the service starts: the name is looked up again
    // later. Its failure is a debug line (OTEL_LOG_LEVEL=debug: OpenTelemetry's console logger, on
    // stdout), no warning: the outage is said once, by @aqm/otel, if traces suffer from it.
    await running.waitForOutput('traces are kept');
    const server = await outage.startOn(port);
    // The job span ends at the exit flush: its trace is sent then, the name looked up first.
    running.child.kill('SIGTERM');
    const run = await running.exited;
    expect(run.signal).toBe('SIGTERM');
    // Delivered once the service answered: nothing was lost, nothing to warn about.
    expect(run.stderr).toBe('');
    expect(await storedPrompts(server, name)).toEqual(['asked while the service was down']);
  });

  it('a key the service refuses (401) is said once, and @aqm/auto turns itself off', async () => {
    const name = `refused-key-${randomUUID()}`;
    const persistDir = mkdtempSync(join(tmpdir(), 'aqm-auto-lookup-'));
    dirs.push(persistDir);
    const run = await runApp(
      app.dir,
      ['--import', '@aqm/auto/register', 'openai-app.mjs'],
      stack.env({
        AQM_API_KEY: 'not-a-key-of-the-service',
        AQM_APPLICATION_NAME: name,
        AQM_PERSIST_DIR: persistDir,
      }),
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `@aqm/auto: The service rejected AQM_API_KEY (401) while looking up application "${name}" ` +
        '(AQM_APPLICATION_NAME): check the key. No LLM trace is sent.\n',
    );
    expect(await spilledTraces(persistDir)).toBe(0);
  });
});
