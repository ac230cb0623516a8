import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AqmClient } from '@aqm/client';
import { type FakeLlm, startFakeLlm } from '@aqm/fake-llm';
import { type RunningServer, startServer } from '@aqm/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeSampleCount, readmeSampleMismatches } from './readme-sample.js';
import { cleanEnv, conversationLines, oneLine, printedTraces, ROOT, runNode } from './run-node.js';

// Each example, how many model interactions (so traces) one run of it makes, and how many of
// them its README shows as sample output.
const EXAMPLES = [
  { name: 'express-openai', traces: 3, shown: 1 },
  { name: 'langchain-agent', traces: 2, shown: 1 },
  { name: 'vercel-ai', traces: 2, shown: 1 },
  { name: 'zero-code', traces: 3, shown: 0 },
  { name: 'existing-otel-setup', traces: 2, shown: 1 },
  { name: 'nodesdk-openai', traces: 2, shown: 1 },
  { name: 'otlp-forwarder', traces: 2, shown: 0 },
  { name: 'nodesdk-keep-exporter', traces: 2, shown: 1 },
  { name: 'serverless', traces: 3, shown: 1 },
] as const;

const RUN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = RUN_TIMEOUT_MS + 10_000;
const METRICS = ['answer_relevance', 'toxicity'];

describe.each(EXAMPLES)('example $name', ({ name, traces, shown }) => {
  const cwd = join(ROOT, 'examples', name);

  it(
    'runs offline: starts the local service and the fake model, exits 0 and prints the recorded traces',
    async () => {
      const run = await runNode('main.mjs', { cwd, env: cleanEnv(), timeoutMs: RUN_TIMEOUT_MS });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/AQM: local service at http:\/\/127\.0\.0\.1:\d+\/api/);
      expect(run.stdout).toContain(`The service recorded ${traces} traces`);

      // The recorded prompts and responses are the conversation the example had, one trace each.
      const printed = printedTraces(run.stdout);
      expect(printed).toHaveLength(traces);
      const { sent, answered } = conversationLines(run.stdout);
      expect(sent).toHaveLength(traces);
      expect(printed.map((t) => t.prompt).sort()).toEqual(sent.map(oneLine).sort());
      expect(printed.map((t) => t.response).sort()).toEqual(answered.map(oneLine).sort());
      for (const trace of printed) {
        expect(trace.facts).toMatch(/^success {2}\d+ ms {2}\d+ spans?/);
        // The example's own application has the default metrics on: each trace was scored.
        expect(trace.scores).toMatch(/answer_relevance [\d.]+ (pass|FAIL)/);
      }
      // The fake model is deterministic: the README's sample output is what a run prints.
      expect(readmeSampleCount(cwd)).toBe(shown);
      expect(readmeSampleMismatches(cwd, run.stdout)).toEqual([]);
      if (name === 'express-openai') {
        // example-local-env's README shows this example's output as its own.
        const localEnv = join(ROOT, 'examples', 'local-env');
        expect(readmeSampleCount(localEnv)).toBe(1);
        expect(readmeSampleMismatches(localEnv, run.stdout)).toEqual([]);
      }
    },
    TEST_TIMEOUT_MS,
  );

  describe('against a service and a model the test runs', () => {
    const apiKey = `aqm_test_${randomBytes(12).toString('hex')}`;
    let server: RunningServer;
    let llm: FakeLlm;
    let client: AqmClient;
    let applicationId: string;

    beforeAll(async () => {
      server = await startServer({ port: 0, apiKeys: [{ key: apiKey, projectId: 'examples-test' }] });
      llm = await startFakeLlm({ port: 0 });
      client = new AqmClient({ apiKey, baseUrl: server.url });
      const app = await client.applications.create({ name: `test-${name}` });
      applicationId = app.id;
      await client.monitoring.update(applicationId, { metrics: METRICS.map((type) => ({ type })) });
    });
    afterAll(async () => {
      await client?.close();
      await llm?.close();
      await server?.close();
    });

    /** Runs the example's main.mjs against the service and the model this test started. */
    function runExample() {
      return runNode('main.mjs', {
        cwd,
        env: cleanEnv({
          AQM_BASE_URL: server.url,
          AQM_API_KEY: apiKey,
          AQM_APPLICATION_ID: applicationId,
          OPENAI_BASE_URL: llm.url,
          OPENAI_API_KEY: 'test-key',
        }),
        timeoutMs: RUN_TIMEOUT_MS,
      });
    }

    it(
      'prints exactly what the service stored, read back with @aqm/client',
      async () => {
        const run = await runExample();
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(run.stdout).toContain(`service at ${server.url}, application ${applicationId}`);
        expect(run.stdout).not.toContain(apiKey);
        // The model the test runs answered the example's calls (agents call it more than once).
        expect(llm.requests.length).toBeGreaterThanOrEqual(traces);

        const stored = (await client.traces.list(applicationId, { limit: 100 })).data;
        expect(stored).toHaveLength(traces);
        const printed = new Map(printedTraces(run.stdout).map((t) => [t.traceId, t]));
        expect(printed.size).toBe(traces);
        for (const summary of stored) {
          const trace = await client.traces.get(applicationId, summary.traceId);
          const shown = printed.get(trace.traceId);
          expect(shown, `trace ${trace.traceId} printed`).toBeDefined();
          expect(shown?.prompt).toBe(oneLine(trace.prompt));
          expect(shown?.response).toBe(oneLine(trace.response));
          expect((trace.evaluationResults ?? []).map((r) => r.metric).sort()).toEqual([...METRICS].sort());
          for (const result of trace.evaluationResults ?? []) {
            expect(shown?.scores).toContain(
              `${result.metric} ${result.score} ${result.passed ? 'pass' : 'FAIL'}`,
            );
          }
        }
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'run again against the same application, prints only the traces of that run',
      async () => {
        const before = (await client.traces.list(applicationId, { limit: 100 })).data.map((t) => t.traceId);
        const run = await runExample();
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        const after = (await client.traces.list(applicationId, { limit: 100 })).data.map((t) => t.traceId);
        const added = after.filter((id) => !before.includes(id));
        expect(added).toHaveLength(traces);
        expect(run.stdout).toContain(`The service recorded ${traces} traces`);
        expect(
          printedTraces(run.stdout)
            .map((t) => t.traceId)
            .sort(),
        ).toEqual(added.sort());
      },
      TEST_TIMEOUT_MS,
    );
  });
});

describe('an example that cannot do its job', () => {
  const cwd = join(ROOT, 'examples', 'express-openai');

  it(
    'exits 1 saying which setting is missing',
    async () => {
      const run = await runNode('main.mjs', {
        cwd,
        env: cleanEnv({ AQM_BASE_URL: 'http://127.0.0.1:9/api' }),
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('AQM_BASE_URL is set but AQM_API_KEY is not');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'exits 1 on a key the service refuses, without printing the key',
    async () => {
      const server = await startServer({ port: 0, apiKeys: [{ key: 'the-right-key', projectId: 'p' }] });
      try {
        const wrongKey = `wrong-${randomBytes(8).toString('hex')}`;
        const run = await runNode('main.mjs', {
          cwd,
          env: cleanEnv({ AQM_BASE_URL: server.url, AQM_API_KEY: wrongKey }),
          timeoutMs: RUN_TIMEOUT_MS,
        });
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(/The express-openai example failed: AqmAuthenticationError/);
        expect(run.stdout + run.stderr).not.toContain(wrongKey);
      } finally {
        await server.close();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
