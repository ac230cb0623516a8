import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AppDir, createAppDir } from './helpers/app-dir.js';
import { killRunningApps, lastJsonLine, runApp } from './helpers/run-app.js';
import { API_KEY, type Stack, startStack } from './helpers/stack.js';

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

const ESM_APP = ['--import', '@aqm/auto/register', 'openai-app.mjs'];

/** Applications of the test project with exactly this name. */
async function applicationsNamed(name: string) {
  const found = [];
  for await (const application of stack.client.applications.iterate({ search: name })) {
    if (application.name === name) found.push(application);
  }
  return found;
}

/**
 * The AQM_APPLICATION_NAME test runs two apps one after the other (the second must find what the
 * first created), each a full Node start that loads openai, OpenTelemetry and the instrumentations
 * and makes two calls, plus a lookup slowed by 800 ms on purpose: about 4.5 s on an idle machine,
 * twice the work of a one-run test. With a load around 11 on 2 cores each start takes several times
 * longer, so the default 30 s (budgeted for one app run) is too tight; this allows two runs' worth.
 */
const TWO_RUNS_TIMEOUT_MS = 60_000;

describe('configuration from the environment', () => {
  it(
    'AQM_APPLICATION_NAME creates the application on the first run and finds it on the second',
    async () => {
      const name = 'support-bot (auto by name)';
      expect(await applicationsNamed(name)).toEqual([]);

      // A slow lookup: the app's calls end (and it reaches beforeExit) before the id is known.
      stack.server.setFaults({ rules: [{ route: 'applications.list', latencyMs: 800 }] });
      const first = await runApp(
        app.dir,
        ESM_APP,
        stack.env({ AQM_APPLICATION_NAME: name, PROMPT_ONE: 'first run' }),
      );
      stack.server.setFaults(null);
      expect(first.stderr).toBe('');
      const [created] = await applicationsNamed(name);
      expect(created?.description).toBe('Created by @aqm/auto (AQM_APPLICATION_NAME)');

      const second = await runApp(
        app.dir,
        ESM_APP,
        stack.env({ AQM_APPLICATION_NAME: name, PROMPT_ONE: 'second run' }),
      );
      expect(second.stderr).toBe('');
      expect(await applicationsNamed(name)).toHaveLength(1);
      // Both runs' traces are in that application, those recorded before the lookup finished included.
      const prompts = (await stack.traces(created?.id ?? '')).map((trace) => trace.prompt);
      expect(prompts).toEqual(expect.arrayContaining(['first run', 'second run']));
      expect(prompts).toHaveLength(4);
    },
    TWO_RUNS_TIMEOUT_MS,
  );

  it('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=false: the calls arrive, with no message content', async () => {
    const applicationId = await stack.createApplication('no content app');
    const prompt = 'My card number is 4111 1111 1111 1111, can you book it?';
    const run = await runApp(
      app.dir,
      ESM_APP,
      stack.env({
        AQM_APPLICATION_ID: applicationId,
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'false',
        PROMPT_ONE: prompt,
      }),
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const traces = await stack.traces(applicationId);
    expect(traces).toHaveLength(2);
    for (const trace of traces) {
      expect(trace).toMatchObject({ prompt: '', response: '', model: 'gpt-4o-mini' });
      expect(JSON.stringify(trace)).not.toContain('4111');
    }
  });

  it('only the main thread starts: worker threads inherit the preload but do not run it', async () => {
    const applicationId = await stack.createApplication('worker app');
    const run = await runApp(
      app.dir,
      ['--require', '@aqm/auto/register', 'worker-app.cjs'],
      stack.env({ AQM_APPLICATION_ID: applicationId }),
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(lastJsonLine(run)).toEqual({ main: true, worker: false });
  });

  it('an ES module app started with --require gets one warning naming --import, and runs', async () => {
    const applicationId = await stack.createApplication('esm app under require');
    const run = await runApp(
      app.dir,
      ['--require', '@aqm/auto/register', 'openai-app.mjs'],
      stack.env({ AQM_APPLICATION_ID: applicationId }),
    );
    expect(run.code).toBe(0);
    expect(lastJsonLine<{ answers: string[]; patched: boolean }>(run)).toMatchObject({ patched: false });
    expect(run.stderr.trim()).toBe(
      '@aqm/auto: openai-app.mjs is an ES module: --require @aqm/auto/register cannot instrument what it ' +
        'loads with import (openai, @anthropic-ai/sdk, LangChain), so those calls send no trace. ' +
        'Start it with node --import @aqm/auto/register instead (in NODE_OPTIONS too).',
    );
    // Switched off, the same start says nothing.
    const off = await runApp(
      app.dir,
      ['--require', '@aqm/auto/register', 'openai-app.mjs'],
      stack.env({ AQM_APPLICATION_ID: applicationId, AQM_DISABLED: 'true' }),
    );
    expect(off).toMatchObject({ code: 0, stderr: '' });
  });

  it.each(['AQM_DISABLED', 'OTEL_SDK_DISABLED'])(
    '%s=true sends nothing and patches nothing, silently',
    async (name) => {
      const applicationId = await stack.createApplication(`disabled by ${name}`);
      const run = await runApp(
        app.dir,
        ESM_APP,
        stack.env({ AQM_APPLICATION_ID: applicationId, [name]: 'true' }),
      );
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(lastJsonLine<{ patched: boolean }>(run).patched).toBe(false);
      expect(await stack.traces(applicationId)).toEqual([]);
    },
  );

  it('a missing AQM_API_KEY gives one warning, and the app runs and exits with code 0', async () => {
    const applicationId = await stack.createApplication('no key app');
    const { AQM_API_KEY: _omitted, ...env } = stack.env({ AQM_APPLICATION_ID: applicationId });
    const run = await runApp(app.dir, ESM_APP, env);
    expect(run.code).toBe(0);
    expect(lastJsonLine<{ answers: string[] }>(run).answers).toHaveLength(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^@aqm\/auto: AQM_API_KEY is not set, so no LLM trace is sent\. Set AQM_API_KEY/,
    );
    expect(await stack.traces(applicationId)).toEqual([]);
  });

  it('a bad variable is named in the one warning, and the key never appears', async () => {
    const run = await runApp(
      app.dir,
      ESM_APP,
      stack.env({ AQM_APPLICATION_ID: '6b1f3c2e-1d4a-4f7b-9c8e-2a5b7d9e0f13', AQM_SAMPLE_RATE: 'half' }),
    );
    expect(run.code).toBe(0);
    expect(run.stderr.trim()).toBe(
      '@aqm/auto: AQM_SAMPLE_RATE must be a number from 0 to 1, got `half`, so no LLM trace is sent. ' +
        'Fix the variable, or set AQM_DISABLED=true.',
    );
    expect(run.stderr).not.toContain(API_KEY);
  });

  it('an application id the service does not know is reported once, and the app is not disturbed', async () => {
    const unknownId = '6b1f3c2e-1d4a-4f7b-9c8e-2a5b7d9e0f13';
    const run = await runApp(app.dir, ESM_APP, stack.env({ AQM_APPLICATION_ID: unknownId }));
    expect(run.code).toBe(0);
    expect(lastJsonLine<{ answers: string[] }>(run).answers).toHaveLength(2);
    expect(run.stderr.trim()).toBe(
      `@aqm/auto: The service does not know application ${unknownId} (AQM_APPLICATION_ID), ` +
        'or AQM_API_KEY cannot access it (404). No LLM trace is sent.',
    );
  });

  it('a base URL without the path prefix is named as such, not blamed on the application id', async () => {
    const applicationId = await stack.createApplication('prefix app');
    const env = stack.env({ AQM_APPLICATION_ID: applicationId });
    const run = await runApp(app.dir, ESM_APP, {
      ...env,
      AQM_BASE_URL: env.AQM_BASE_URL?.replace(/\/api$/, '') ?? '',
    });
    expect(run.code).toBe(0);
    expect(lastJsonLine<{ answers: string[] }>(run).answers).toHaveLength(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^@aqm\/auto: The service answered 404 while checking application /);
    expect(lines[0]).toContain("check that AQM_BASE_URL includes the service's path prefix");
    expect(run.stderr).not.toContain(API_KEY);
  });
});
