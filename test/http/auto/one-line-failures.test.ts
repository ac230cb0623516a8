import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lateService } from '../otel/helpers/late-service.js';
import { type AppDir, createAppDir } from './helpers/app-dir.js';
import { killRunningApps, runApp } from './helpers/run-app.js';
import { API_KEY, type Stack, startStack } from './helpers/stack.js';

// Each failure an app with @aqm/auto can meet is said in one line on stderr, by one layer: @aqm/auto
// for what turns it off (configuration, a definite answer to its lookup), @aqm/otel for delivery
// (the pipeline holds the traces, so it can say the cause and what became of them). Before, a
// service down at start was said by both (@aqm/auto at start, @aqm/otel at exit), and a flush
// writing to persistDir said so in two lines of its own.
const outage = lateService([{ key: API_KEY, projectId: 'auto-one-line' }]);
let stack: Stack;
let app: AppDir;
const dirs: string[] = [];
beforeAll(async () => {
  stack = await startStack();
  app = createAppDir();
});
afterEach(() => killRunningApps());
afterAll(async () => {
  await outage.closeAll();
  await stack?.close();
  app?.remove();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ESM_APP = ['--import', '@aqm/auto/register', 'openai-app.mjs'];
const UNKNOWN_ID = '6b1f3c2e-1d4a-4f7b-9c8e-2a5b7d9e0f13';

/** A failure: the app's environment, and what its one line must say (cause, and the data's fate). */
interface FailureCase {
  env: Record<string, string>;
  says: RegExp[];
}

describe('one line per failure', () => {
  it('every failure case prints exactly one line on stderr, with its cause and what happens to the traces', async () => {
    const id = await stack.createApplication('one line per failure');
    const down = `http://127.0.0.1:${await outage.stoppedPort()}/api`;
    const persistDir = mkdtempSync(join(tmpdir(), 'aqm-auto-one-line-'));
    dirs.push(persistDir);
    const cases: Record<string, FailureCase> = {
      'key refused (401), application by id': {
        env: stack.env({ AQM_APPLICATION_ID: id, AQM_API_KEY: 'not-a-key-of-the-service' }),
        says: [/^@aqm\/auto: The service rejected AQM_API_KEY \(401\)/, /No LLM trace is sent/],
      },
      'key refused (401), application by name': {
        env: stack.env({ AQM_APPLICATION_NAME: 'one-line-a', AQM_API_KEY: 'not-a-key-of-the-service' }),
        says: [/^@aqm\/auto: The service rejected AQM_API_KEY \(401\)/, /No LLM trace is sent/],
      },
      'unknown application id (404)': {
        env: stack.env({ AQM_APPLICATION_ID: UNKNOWN_ID }),
        says: [/^@aqm\/auto: The service does not know application/, /No LLM trace is sent/],
      },
      'a bad variable': {
        env: stack.env({ AQM_APPLICATION_ID: id, AQM_SAMPLE_RATE: 'half' }),
        says: [/^@aqm\/auto: AQM_SAMPLE_RATE must be a number from 0 to 1, got `half`/],
      },
      'service down, application by id': {
        env: stack.env({ AQM_APPLICATION_ID: id, AQM_BASE_URL: down, AQM_FLUSH_TIMEOUT_MS: '1500' }),
        says: [/^@aqm\/otel: 2 trace\(s\) were not delivered before shutdown/, /ECONNREFUSED/],
      },
      'service down, application by name': {
        env: stack.env({
          AQM_APPLICATION_NAME: 'one-line-b',
          AQM_BASE_URL: down,
          AQM_FLUSH_TIMEOUT_MS: '1500',
        }),
        says: [/^@aqm\/otel: 2 trace\(s\) were not delivered before shutdown/, /ECONNREFUSED/],
      },
      'service down, application by name, with AQM_PERSIST_DIR': {
        env: stack.env({
          AQM_APPLICATION_NAME: 'one-line-c',
          AQM_BASE_URL: down,
          AQM_FLUSH_TIMEOUT_MS: '3000',
          AQM_PERSIST_DIR: persistDir,
        }),
        says: [
          /^@aqm\/otel: forceFlush\(\) stopped waiting/,
          /ECONNREFUSED/,
          /2 trace\(s\) .* written to persistDir/,
        ],
      },
    };
    // The apps run at once: each is a full Node start, and they share nothing but the stack.
    const runs = await Promise.all(
      Object.entries(cases).map(async ([name, failure]) => ({
        name,
        failure,
        run: await runApp(app.dir, ESM_APP, failure.env),
      })),
    );
    for (const { name, failure, run } of runs) {
      const lines = run.stderr.split('\n').filter((line) => line !== '');
      expect(lines, `${name}:\n${run.stderr}`).toHaveLength(1);
      for (const pattern of failure.says) expect(lines[0], name).toMatch(pattern);
      expect(run.stderr, name).not.toContain(API_KEY);
      expect(run.code, name).toBe(0);
    }
  }, 90_000);
});
