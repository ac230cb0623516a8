import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, ROOT, runNode } from './examples/run-node.js';

// @aqm/otel's debug switch in a real app (test/fixtures/instrumentations/debug-switch.mjs): the
// OpenInference OpenAI instrumentation and the real `openai` package against @aqm/fake-llm,
// AqmSpanProcessor sending to the local service. Its stderr is read: the configuration (never the
// key), a trace sent, a trace skipped with its attribute keys, a drop, disk writes and replays; and
// without a switch, none of it. Uses the built @aqm/otel.

const FIXTURE = join(ROOT, 'test', 'fixtures', 'instrumentations');
const RUN_TIMEOUT_MS = 40_000;
/** Unique text, so finding it anywhere in the output can only mean the key leaked. */
const KEY = `aqm_debugkey_${Math.random().toString(36).slice(2)}_SECRET`;
/** No switch inherited from the test's environment. */
const QUIET = { AQM_DEBUG: '', OTEL_LOG_LEVEL: '', AQM_TEST_KEY: KEY };

interface Report {
  stats: { exportedTraces: number; droppedTraces: { total: number }; skippedTraces: number };
  skippedTraceId: string;
}

async function run(env: Record<string, string>) {
  const merged = cleanEnv({ ...QUIET, ...env });
  for (const [name, value] of Object.entries(merged)) if (value === '') delete merged[name];
  const result = await runNode('debug-switch.mjs', { cwd: FIXTURE, env: merged, timeoutMs: RUN_TIMEOUT_MS });
  expect(result.code, result.stderr).toBe(0);
  const report = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as Report;
  const debugLines = result.stderr.split('\n').filter((line) => line.startsWith('@aqm/otel debug: '));
  return { ...result, report, debugLines };
}

function expectNoKey(output: string): void {
  expect(output).not.toContain(KEY);
  // Not even a piece of it beyond the first characters every key could share.
  expect(output).not.toContain(KEY.slice(4, 20));
}

describe.each([
  ['AQM_DEBUG=1', { AQM_DEBUG: '1' }],
  ['OTEL_LOG_LEVEL=debug', { OTEL_LOG_LEVEL: 'debug' }],
])('%s in an app with a hand-built provider and no diag logger', (name, env) => {
  it('prints the config (key redacted), a trace sent, a trace skipped with its keys, and a drop on stderr', async () => {
    const { stdout, stderr, report, debugLines } = await run(env);
    console.info(`[otel ${name}] debug lines:\n${debugLines.join('\n')}`);
    expectNoKey(stdout + stderr);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no raw control character may reach stderr
    expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(report.stats.exportedTraces).toBe(1);
    expect(report.stats.droppedTraces.total).toBe(1);
    const config = debugLines.filter((line) => line.includes(' config: '));
    expect(config).toHaveLength(1);
    expect(config[0]).toMatch(
      /endpoint=http:\/\/127\.0\.0\.1:\d+\/api application=[0-9a-f-]{36} apiKey=set \(redacted\) /,
    );
    expect(config[0]).toContain('maxQueueTraces=1 ');
    expect(config[0]).toContain('persistDir=off ');
    const sent = debugLines.filter((line) => / sent: /.test(line));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(
      /^@aqm\/otel debug: trace [0-9a-f]{32} sent: prompt 13 chars, response \d+ chars, model gpt-4o-mini, status success, 1 span\(s\); accepted by the service \(HTTP 2xx, request of 1 trace\(s\)\)$/,
    );
    expect(debugLines).toContain(
      `@aqm/otel debug: trace ${report.skippedTraceId} skipped: no LLM span among its 1 span(s); ` +
        'attribute keys seen: http.request.method, url.path, evil\\u001b[31mkey',
    );
    expect(debugLines.find((line) => line.includes('dropped 1 trace(s) ('))).toMatch(
      /dropped 1 trace\(s\) \([0-9a-f]{32}\), reason queue-full: Queue full \(1 traces, \d+ bytes held; maxQueueTraces 1/,
    );
  });
});

describe('debug lines of the disk (AQM_DEBUG=1, persistDir)', () => {
  it('prints each write to persistDir and each replay from it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aqm-debug-spill-'));
    try {
      const { stdout, stderr, debugLines } = await run({
        AQM_DEBUG: '1',
        MODE: 'spill',
        AQM_TEST_PERSIST_DIR: dir,
      });
      console.info(`[otel persistDir] debug lines:\n${debugLines.join('\n')}`);
      expectNoKey(stdout + stderr);
      const wrote = debugLines.filter((line) => line.includes(`persistDir: wrote 1 trace(s) to ${dir} as `));
      const replaying = debugLines.filter((line) =>
        /persistDir: replaying \S+ \(1 trace\(s\)\) from /.test(line),
      );
      const replayed = debugLines.filter((line) =>
        /persistDir: \S+: 1 delivered, 0 kept on disk, 0 dropped; the file was deleted$/.test(line),
      );
      expect([wrote.length, replaying.length, replayed.length]).toEqual([2, 2, 2]);
      expect(debugLines.filter((line) => / sent: prompt \d+ chars/.test(line))).toHaveLength(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('NodeSDK with both AQM_DEBUG=1 and OTEL_LOG_LEVEL=debug', () => {
  it('prints each line once (stderr), not again through the console logger NodeSDK installs', async () => {
    const { stdout, stderr } = await run({ AQM_DEBUG: '1', OTEL_LOG_LEVEL: 'debug', SETUP: 'nodesdk' });
    expectNoKey(stdout + stderr);
    expect(stderr.split('\n').filter((line) => line.includes(' config: endpoint='))).toHaveLength(1);
    expect(stderr.split('\n').filter((line) => / sent: prompt/.test(line))).toHaveLength(1);
    expect(stdout).not.toContain('config: endpoint=');
    expect(stdout).not.toMatch(/ sent: prompt/);
  });
});

describe('without a switch', () => {
  it('prints none of these lines', async () => {
    const { stdout, stderr, report, debugLines } = await run({});
    expectNoKey(stdout + stderr);
    expect(report.stats.exportedTraces).toBe(1);
    expect(debugLines).toEqual([]);
    expect(stderr).not.toMatch(/config: |skipped: |sent: |persistDir: /);
  });
});
