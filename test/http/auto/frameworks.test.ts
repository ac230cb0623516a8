import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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

/** Runs `args` in the app directory for a new application; returns the run and its traces. */
async function runFor(name: string, args: string[]) {
  const applicationId = await stack.createApplication(name);
  const run = await runApp(app.dir, args, stack.env({ AQM_APPLICATION_ID: applicationId }));
  expect(run).toMatchObject({ code: 0, stderr: '' });
  return { run, traces: await stack.traces(applicationId) };
}

describe('what @aqm/auto instruments besides openai', () => {
  it.each([
    ['--import', 'anthropic-app.mjs'],
    ['--require', 'anthropic-app.cjs'],
  ])('@anthropic-ai/sdk (non-streaming): node %s @aqm/auto/register %s', async (flag, script) => {
    const { run, traces } = await runFor(`anthropic ${flag}`, [flag, '@aqm/auto/register', script]);
    const { answer } = lastJsonLine<{ answer: string }>(run);
    const prompt = 'Which river flows through Vienna?';
    expect(traces).toHaveLength(1);
    expect(traces[0]).toMatchObject({
      prompt,
      response: answer,
      model: 'claude-haiku-4-5',
      provider: 'anthropic',
      usage: { inputTokens: prompt.split(/\s+/).length, outputTokens: answer.split(/\s+/).length },
    });
    // Traceloop's span only: the SDK's own span (same call, same tokens) is switched off.
    expect(traces[0]?.spans.map((span) => span.name)).toEqual(['chat claude-haiku-4-5']);
  });

  it.each([
    ['--import', 'anthropic-stream-app.mjs'],
    ['--require', 'anthropic-stream-app.cjs'],
  ])('@anthropic-ai/sdk (streaming): node %s @aqm/auto/register %s', async (flag, script) => {
    const { run, traces } = await runFor(`anthropic stream ${flag}`, [flag, '@aqm/auto/register', script]);
    const { answers } = lastJsonLine<{ answers: [string, string] }>(run);
    // `messages.create({ stream: true })`, then the SDK's `messages.stream()` helper.
    const calls = [
      { prompt: 'Which river flows through Budapest?', model: 'claude-haiku-4-5', answer: answers[0] },
      { prompt: 'Which river flows through Bratislava?', model: 'claude-haiku-4-5', answer: answers[1] },
    ];
    for (const { answer } of calls) expect(answer).toMatch(/\w/);
    const byPrompt = (a: { prompt: string }, b: { prompt: string }) => a.prompt.localeCompare(b.prompt);
    expect([...traces].sort(byPrompt)).toMatchObject(
      [...calls].sort(byPrompt).map(({ prompt, model, answer }) => ({
        prompt,
        // Assembled from the streamed deltas: the whole answer, as the app read it.
        response: answer,
        model,
        provider: 'anthropic',
        usage: { inputTokens: prompt.split(/\s+/).length, outputTokens: answer.split(/\s+/).length },
      })),
    );
    expect(traces).toHaveLength(2);
    for (const trace of traces) expect(trace.spans.map((span) => span.name)).toEqual([`chat ${trace.model}`]);
  });

  it.each([
    ['--import', 'langchain-app.mjs'],
    ['--require', 'langchain-app.cjs'],
  ])(
    'LangChain runs, through the handler attached globally: node %s @aqm/auto/register %s',
    async (flag, script) => {
      const { traces } = await runFor(`langchain ${flag}`, [flag, '@aqm/auto/register', script]);
      expect(traces).toHaveLength(1);
      expect(traces[0]).toMatchObject({
        prompt: 'What is the capital of Portugal?',
        response: 'Lisbon is the capital of Portugal.',
      });
      expect(traces[0]?.spans.map((span) => span.name)).toEqual(['chat']);
    },
  );
});

interface OwnSetupOutput {
  ownProviderIsGlobal: boolean;
  seen: string[];
}

describe('an app with its own OpenTelemetry setup', () => {
  it('registered in its code after the preload: it keeps its provider, and AQM gets the trace too', async () => {
    const { run, traces } = await runFor('own provider', [
      '--import',
      '@aqm/auto/register',
      'own-provider-app.mjs',
    ]);
    expect(lastJsonLine<OwnSetupOutput>(run)).toEqual({
      ownProviderIsGlobal: true,
      seen: ['chat gpt-4o-mini', 'handle request'],
    });
    expect(traces).toHaveLength(1);
    expect(traces[0]).toMatchObject({ prompt: 'Which provider records this call?', model: 'gpt-4o-mini' });
    expect(traces[0]?.spans.map((span) => span.name).sort()).toEqual(['chat gpt-4o-mini', 'handle request']);
  });

  it('preloaded before @aqm/auto: the processor is added to that provider, which stays the global one', async () => {
    const { run, traces } = await runFor('preset provider', [
      '--import',
      './otel-setup.mjs',
      '--import',
      '@aqm/auto/register',
      'preset-provider-app.mjs',
    ]);
    expect(lastJsonLine<OwnSetupOutput>(run)).toEqual({
      ownProviderIsGlobal: true,
      seen: ['chat gpt-4o-mini'],
    });
    expect(traces.map((trace) => trace.prompt)).toEqual(['Does the preloaded provider see this?']);
  });
});
