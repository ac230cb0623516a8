import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, ROOT, runNode } from './examples/run-node.js';

// The OpenAI instrumentations of OpenInference and Traceloop (test/fixtures/openai-sources, whose
// spans are also recorded for the mapping's unit tests and the forwarder's parity test), tracing
// the real `openai` package against the fake model through the five recorded scenarios, each run
// in its own process into the local service. Uses the built @aqm/otel.

const FIXTURE = join(ROOT, 'test', 'fixtures', 'openai-sources');
const RUN_TIMEOUT_MS = 40_000;
const MODEL = 'gpt-4o-mini';

interface ScenarioResult {
  name: string;
  question: string;
  answer: string;
  failed: boolean;
  stored: { prompt: string; response: string; status: string; errorMessage?: string; model?: string } | null;
}

interface Report {
  source: string;
  traces: number;
  scenarios: ScenarioResult[];
}

describe.each(['openinference-openai', 'traceloop-openai'])('%s', (source) => {
  let report: Report;
  let stderr: string;
  let code: number | null;
  const scenario = (name: string): ScenarioResult => {
    const found = report.scenarios.find((result) => result.name === name);
    if (found === undefined) throw new Error(`no scenario ${name}`);
    return found;
  };

  beforeAll(async () => {
    const run = await runNode('run.mjs', {
      cwd: FIXTURE,
      env: cleanEnv({ SOURCE: source }),
      timeoutMs: RUN_TIMEOUT_MS,
    });
    stderr = run.stderr;
    code = run.code;
    report = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Report;
  }, RUN_TIMEOUT_MS + 5_000);

  it('runs cleanly: nothing on stderr, one stored trace per scenario that has a model span', () => {
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(report.source).toBe(source);
    expect(report.scenarios.map((result) => result.name)).toEqual([
      'plain',
      'stream',
      'tool round trip',
      'tool round trip in a wrapper',
      'failed call',
    ]);
    expect(report.traces).toBe(report.scenarios.filter((result) => result.stored !== null).length);
  });

  it.each(['plain', 'stream', 'tool round trip', 'tool round trip in a wrapper'])(
    '%s: the question, the final text answer (never the tool call), success, the model',
    (name) => {
      const result = scenario(name);
      expect(result.failed).toBe(false);
      expect(result.answer, 'the fake model answered in text').not.toBe('');
      expect(result.stored).toEqual({
        prompt: result.question,
        response: result.answer,
        status: 'success',
        model: MODEL,
      });
    },
  );

  // Both instrumentations end a call's span only on success: a rejected call's span stays open and
  // is never exported, so the request's trace holds only the app's own span and no record is made.
  // Expected to fail until the span of an unfinished model call is accounted for.
  it.fails('failed call: stored as an error (a failed call leaves its span open today)', () => {
    const result = scenario('failed call');
    expect(result.failed).toBe(true);
    expect(result.stored?.status).toBe('error');
    expect(result.stored?.prompt).toBe(result.question);
  });
});
