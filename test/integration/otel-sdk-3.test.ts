import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, ROOT, runNode } from './examples/run-node.js';

// The OpenTelemetry SDK 3.x line needs Node >= 22.15, so this runs in the Node 22 test run; the
// 2.x line is what every other test uses. The types of both lines are checked by `pnpm typecheck`.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const canRunSdk3 = major > 22 || (major === 22 && minor >= 15);

describe.skipIf(!canRunSdk3)('@aqm/otel on the SDK 3.x line (@opentelemetry/sdk-trace 3, api 1.10)', () => {
  it('delivers LLM traces through AqmSpanProcessor and through AqmSpanExporter behind the 3.x BatchSpanProcessor', async () => {
    const run = await runNode('run.mjs', {
      cwd: join(ROOT, 'test', 'fixtures', 'otel-sdk-3'),
      env: cleanEnv(),
      timeoutMs: 30_000,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}');
    for (const setup of ['processor', 'exporter']) {
      expect(report[setup].prompts).toEqual([`${setup}: first question`, `${setup}: second`]);
      expect(report[setup].responses).toEqual(['first answer', 'second']);
      for (const stored of report[setup].stored) {
        expect(stored).toMatchObject({ spanCount: 2, status: 'success', model: 'gpt-4o-mini' });
      }
    }
  }, 40_000);
});
