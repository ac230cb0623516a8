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

interface OpenAiAppOutput {
  patched: boolean;
  answers: [string, string];
}

/** Runs the OpenAI fixture with `@aqm/auto/register` preloaded, with its own two prompts. */
async function runOpenAiApp(flag: '--import' | '--require', script: string, applicationId: string) {
  const prompts = {
    PROMPT_ONE: `${script}: what is the capital of Spain?`,
    PROMPT_TWO: `${script}: tell a streamed tale`,
  };
  const run = await runApp(
    app.dir,
    [flag, '@aqm/auto/register', script],
    stack.env({
      AQM_APPLICATION_ID: applicationId,
      AQM_ENVIRONMENT: 'staging',
      AQM_APP_VERSION: '3.1.4',
      OTEL_SERVICE_NAME: 'travel-assistant',
      ...prompts,
    }),
  );
  return { run, prompts };
}

describe.each([
  ['--import', 'openai-app.mjs'],
  ['--require', 'openai-app.cjs'],
] as const)('node %s @aqm/auto/register %s (the real openai package)', (flag, script) => {
  it('sends the non-streaming and the streaming call, with prompt, response, model, usage and the optional settings', async () => {
    const applicationId = await stack.createApplication(`openai ${flag}`);
    const { run, prompts } = await runOpenAiApp(flag, script, applicationId);

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const output = lastJsonLine<OpenAiAppOutput>(run);
    expect(output.patched).toBe(true);

    // The app exited normally: the flush at beforeExit delivered everything before it ended.
    const traces = await stack.traces(applicationId);
    const byPrompt = new Map(traces.map((trace) => [trace.prompt, trace]));
    expect([...byPrompt.keys()].sort()).toEqual([prompts.PROMPT_ONE, prompts.PROMPT_TWO].sort());
    const [answerOne, answerTwo] = output.answers;
    for (const [prompt, answer] of [
      [prompts.PROMPT_ONE, answerOne],
      [prompts.PROMPT_TWO, answerTwo],
    ] as const) {
      const trace = byPrompt.get(prompt);
      expect(trace).toMatchObject({
        response: answer,
        model: 'gpt-4o-mini',
        status: 'success',
        environment: 'staging',
        appVersion: '3.1.4',
        metadata: { 'service.name': 'travel-assistant' },
      });
      // The fake model counts words: the prompt's and the answer's.
      expect(trace?.usage).toEqual({
        inputTokens: prompt.split(/\s+/).length,
        outputTokens: answer.split(/\s+/).length,
        totalTokens: prompt.split(/\s+/).length + answer.split(/\s+/).length,
      });
      expect(trace?.spans.map((span) => span.name)).toEqual(['chat gpt-4o-mini']);
    }
    // The upstream saw one streaming request with usage asked for.
    const streamed = stack.llm.requests.find(
      (request) => request.messages.at(-1)?.content === prompts.PROMPT_TWO,
    );
    expect(streamed?.stream).toBe(true);
  });
});
