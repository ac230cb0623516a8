import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { QUESTIONS, SCENARIO_NAMES } from '../fixtures/scenarios.mjs';
import { cleanEnv, ROOT, runNode } from './examples/run-node.js';

// A fixture package of test/fixtures that drives a real instrumentation through the five
// scenarios (see test/fixtures/scenarios.mjs) into the local service, run in its own process, and
// what it printed.

/** How long one fixture run may take. */
export const SOURCE_RUN_TIMEOUT_MS = 60_000;

/** One scenario as the fixture printed it: what the app asked and got, and what the service stored. */
export interface ScenarioResult {
  name: string;
  question: string;
  answer: string;
  failed: boolean;
  error?: string;
  stored: { prompt: string; response: string; status: string; errorMessage?: string; model?: string } | null;
}

/** What a fixture printed (its last stdout line), with its stderr and exit code. */
export interface SourceRun {
  code: number | null;
  stderr: string;
  traces: number;
  /** Hosts other than loopback the process opened a socket to (fixtures that check it). */
  outbound?: string[];
  results: ScenarioResult[];
}

/** Runs `node run.mjs <source>` in `test/fixtures/<fixture>`. */
export async function runSource(
  fixture: string,
  source: string,
  env: Record<string, string> = {},
): Promise<SourceRun> {
  const run = await runNode('run.mjs', {
    cwd: join(ROOT, 'test', 'fixtures', fixture),
    env: cleanEnv({ SOURCE: source, ...env }),
    timeoutMs: SOURCE_RUN_TIMEOUT_MS,
  });
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  const printed = (last.startsWith('{') ? JSON.parse(last) : { traces: 0, results: [] }) as Omit<
    SourceRun,
    'code' | 'stderr'
  >;
  return { code: run.code, stderr: run.stderr, ...printed };
}

/** The run went through: exit 0, nothing on stderr, the five scenarios, one stored trace each. */
export function expectCleanRun(run: SourceRun): void {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.results.map((result) => result.name)).toEqual(SCENARIO_NAMES);
  expect(run.traces).toBe(SCENARIO_NAMES.length);
}

/**
 * One scenario's record: the user's question, the model's final text answer (never the tool
 * call), status error exactly for the failed call, the model.
 */
export function expectRightRecord(run: SourceRun, name: string, model: string): void {
  const result = run.results.find((candidate) => candidate.name === name);
  expect(result, `${name}: run`).toBeDefined();
  if (result === undefined) return;
  const shouldFail = name === 'failed call';
  expect(result.question).toBe(QUESTIONS[name as keyof typeof QUESTIONS]);
  expect(result.error, `${name}: what the app caught`).toBe(
    shouldFail ? '500 respond threw: the fake model fails on purpose' : undefined,
  );
  expect(result.stored, `${name}: stored`).not.toBeNull();
  expect(result.stored?.prompt, `${name}: prompt`).toBe(result.question);
  if (!shouldFail) expect(result.answer, `${name}: the fake model answered`).not.toBe('');
  expect(result.stored?.response, `${name}: response`).toBe(result.answer);
  expect(result.stored?.status, `${name}: status`).toBe(shouldFail ? 'error' : 'success');
  if (shouldFail) expect(result.stored?.errorMessage, `${name}: why`).toContain('fails on purpose');
  expect(result.stored?.model, `${name}: model`).toBe(model);
}

/**
 * The tests of one source fixture, inside the caller's describe: it runs once (`runSource`), goes
 * through cleanly (`expectCleanRun`, then `alsoClean` under `cleanTitle`), and each of the five
 * scenarios has the right record (`expectRightRecord`, with `model`).
 */
export function itRecordsTheFiveScenarios(
  fixture: string,
  source: string,
  options: {
    model: string;
    env?: Record<string, string>;
    cleanTitle?: string;
    alsoClean?: (run: SourceRun) => void;
  },
): void {
  let run: SourceRun;
  beforeAll(async () => {
    run = await runSource(fixture, source, options.env);
  }, SOURCE_RUN_TIMEOUT_MS + 10_000);

  it(options.cleanTitle ?? 'runs cleanly: nothing on stderr, one trace per scenario', () => {
    expectCleanRun(run);
    options.alsoClean?.(run);
  });

  it.each(SCENARIO_NAMES)('%s: the question, the final text answer, the status, the model', (name) => {
    expectRightRecord(run, name, options.model);
  });
}
