import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { AqmClient } from '@aqm/client';
import { type FakeLlm, startFakeLlm } from '@aqm/fake-llm';
import { type RunningServer, startServer } from '@aqm/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../http/otel/helpers/wait.js';
import { cleanEnv, ROOT, runNode } from './examples/run-node.js';

// aqm-forwarder (its bin, built) fed by a real NodeSDK app with the official OpenAI instrumentation
// that exports its spans there but no log records, which carry that instrumentation's content.

const BIN = join(ROOT, 'packages', 'forwarder', 'bin', 'aqm-forwarder.js');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'instrumentations');
const TIMEOUT_MS = 60_000;
const WITHOUT_CONTENT = /\naqm_forwarder_traces_without_content_total (\d+)\n/;

const apiKey = `fwd-content-${randomUUID()}`;
let server: RunningServer;
let llm: FakeLlm;
let client: AqmClient;
beforeAll(async () => {
  server = await startServer({ port: 0, apiKeys: [{ key: apiKey, projectId: 'forwarder-content' }] });
  llm = await startFakeLlm({ port: 0 });
  client = new AqmClient({ apiKey, baseUrl: server.url });
});
afterAll(async () => {
  await client?.close();
  await llm?.close();
  await server?.close();
});

describe('aqm-forwarder fed by an app that exports no log records', () => {
  it(
    'sends the trace with an empty prompt and response, says why and the fix on stderr once, and counts it in /metrics',
    async () => {
      const name = `forwarder-content-lost-${randomUUID()}`;
      const forwarder = spawn(process.execPath, [BIN, '--port', '0'], {
        env: {
          PATH: process.env.PATH ?? '',
          AQM_API_KEY: apiKey,
          AQM_BASE_URL: server.url,
          AQM_APPLICATION_NAME: name,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output = { stdout: '', stderr: '' };
      forwarder.stdout.on('data', (chunk) => {
        output.stdout += chunk;
      });
      forwarder.stderr.on('data', (chunk) => {
        output.stderr += chunk;
      });
      try {
        await waitFor(() => output.stdout.includes('listening on'), 'the forwarder to listen');
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output.stdout)?.[1] as string;

        for (let run = 0; run < 2; run += 1) {
          const app = await runNode('nodesdk-otlp-no-logs.cjs', {
            cwd: FIXTURE,
            env: cleanEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: url, OPENAI_BASE_URL: llm.url, OTEL_LOG_LEVEL: '' }),
            timeoutMs: TIMEOUT_MS,
          });
          expect(app.stderr).toBe('');
          expect(app.code).toBe(0);
        }
        // Each trace completes once its root waited out rootGraceMs for late log records.
        let metrics = '';
        const counted = async () => {
          metrics = await (await fetch(`${url}/metrics`)).text();
          return Number(WITHOUT_CONTENT.exec(metrics)?.[1] ?? 0);
        };
        const deadline = Date.now() + 15_000;
        while ((await counted()) < 2) {
          if (Date.now() > deadline) throw new Error(`2 traces without content never counted:\n${metrics}`);
          await delay(50);
        }
        expect(metrics).toContain('\naqm_forwarder_log_records_received_total 0\n');
        expect(metrics).toContain('# TYPE aqm_forwarder_traces_without_content_total counter\n');

        forwarder.kill('SIGTERM');
        expect((await once(forwarder, 'exit'))[0]).toBe(0);
        const lines = output.stderr.split('\n').filter((line) => line !== '');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^@aqm\/forwarder: Spans of @opentelemetry\/instrumentation-openai arrive /);
        expect(lines[0]).toContain('no gen_ai log record has arrived at /v1/logs');
        expect(lines[0]).toContain('export log records over OTLP to this forwarder too');
        expect(lines[0]).toContain('aqm_forwarder_traces_without_content_total');

        const [application] = (await client.applications.list({ search: name })).data;
        const { data } = await client.traces.list(application?.id as string, { limit: 10 });
        expect(data.map((t) => [t.prompt, t.response])).toEqual([
          ['', ''],
          ['', ''],
        ]);
      } finally {
        if (forwarder.exitCode === null) forwarder.kill('SIGKILL');
      }
    },
    3 * TIMEOUT_MS,
  );
});
