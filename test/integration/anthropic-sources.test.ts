import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { QUESTIONS, SCENARIO_NAMES } from '../fixtures/scenarios.mjs';
import { cleanEnv, type NodeRun, ROOT, runNode } from './examples/run-node.js';

// The Anthropic SDK's own spans, and the OpenInference and Traceloop Anthropic instrumentations
// (devDependencies of test/fixtures/anthropic), driving the real @anthropic-ai/sdk against the fake
// model's Messages API, each source run in its own process into the local service through the
// built @aqm/otel. The same runs with RECORD=1 write the recordings the mapping's unit tests
// replay (`pnpm fixtures:record`).

const FIXTURE = join(ROOT, 'test', 'fixtures', 'anthropic');
const RUN_TIMEOUT_MS = 40_000;
const MODEL = 'claude-haiku-4-5';
const SOURCES = ['anthropic-sdk', 'openinference-anthropic', 'traceloop-anthropic'];

interface ScenarioResult {
  name: string;
  question: string;
  answer: string;
  failed: boolean;
  stored: { prompt: string; response: string; status: string; model?: string } | null;
}

interface Report {
  source: string;
  packages: Record<string, string>;
  traces: number;
  scenarios: ScenarioResult[];
}

function lastJsonLine<T>(stdout: string): T {
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as T;
}

describe.each(SOURCES)('%s: the real packages against the fake Messages API', (source) => {
  let run: NodeRun;
  let report: Report;
  beforeAll(async () => {
    run = await runNode('run.mjs', {
      cwd: FIXTURE,
      env: cleanEnv({ SOURCE: source }),
      timeoutMs: RUN_TIMEOUT_MS,
    });
    report = lastJsonLine<Report>(run.stdout);
  }, RUN_TIMEOUT_MS + 10_000);

  it('runs every scenario quietly, one stored trace each', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(report.scenarios.map((scenario) => scenario.name)).toEqual(SCENARIO_NAMES);
    expect(report.traces).toBe(SCENARIO_NAMES.length);
    // Traceloop's 0.27.0 patches Anthropic.Completions, gone in the SDK's 1.x.
    expect(report.packages['@anthropic-ai/sdk']).toBe(
      source === 'traceloop-anthropic' ? '0.137.0' : '1.14.0',
    );
  });

  it.each(SCENARIO_NAMES)('%s: the question, the final text answer, the status, the model', (name) => {
    const scenario = report.scenarios.find((entry) => entry.name === name);
    expect(scenario, 'the scenario ran').toBeDefined();
    expect(scenario?.question).toBe(QUESTIONS[name as keyof typeof QUESTIONS]);
    expect(scenario?.failed, 'the app saw the call fail').toBe(name === 'failed call');
    expect(scenario?.stored, 'stored').not.toBeNull();
    expect(scenario?.stored?.prompt, 'prompt').toBe(scenario?.question);
    expect(scenario?.stored?.model, 'model').toBe(MODEL);
    if (scenario?.failed) {
      expect(scenario.stored?.status).toBe('error');
    } else {
      expect(scenario?.answer, 'the fake model answered').not.toBe('');
      expect(scenario?.stored?.status).toBe('success');
      // The app's final text answer, never the first call's tool call.
      expect(scenario?.stored?.response, 'response').toBe(scenario?.answer);
    }
  });
});

describe('anthropic-sdk in its default content mode (metadata_only): empty records, and why, said once', () => {
  it(
    'records go out empty and @aqm/otel names the content mode and the fix, once',
    async () => {
      const run = await runNode('run.mjs', {
        cwd: FIXTURE,
        env: cleanEnv({ SOURCE: 'anthropic-sdk', CONTENT_MODE: 'metadata_only', OTEL_LOG_LEVEL: 'warn' }),
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(run.code).toBe(0);
      const report = lastJsonLine<Report>(run.stdout);
      expect(report.scenarios.map((scenario) => scenario.stored)).toEqual(
        SCENARIO_NAMES.map((name) => ({
          prompt: '',
          response: '',
          status: name === 'failed call' ? 'error' : 'success',
          model: MODEL,
        })),
      );
      const warnings = run.stderr.split('\n').filter((line) => line.includes('@anthropic-ai/sdk'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("openTelemetry: { traces: { contentMode: 'content' } }");
      expect(warnings[0]).toContain('ANTHROPIC_OPEN_TELEMETRY_TRACES_CONTENT_MODE=content');
    },
    RUN_TIMEOUT_MS + 10_000,
  );
});
