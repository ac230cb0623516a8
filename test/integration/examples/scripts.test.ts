import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AqmClient } from '@aqm/client';
import { type FakeLlm, startFakeLlm } from '@aqm/fake-llm';
import { startForwarder } from '@aqm/forwarder';
import { type RunningServer, startServer } from '@aqm/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, printedTraces, ROOT, runCommand } from './run-node.js';

/**
 * The examples' package.json scripts other than `start` (which examples.test.ts runs), each run
 * here as its README says: a script no test runs could stop working unnoticed (`pnpm app` of
 * otlp-forwarder once ran the app without its telemetry, so nothing reached the forwarder).
 */
const RUN_HERE = [
  'nodesdk-keep-exporter start:span-processors',
  'nodesdk-openai start:cjs',
  'otlp-forwarder app',
  'zero-code app',
];

const RUN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = RUN_TIMEOUT_MS + 10_000;

function scriptsOf(example: string): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'examples', example, 'package.json'), 'utf8'));
  return manifest.scripts ?? {};
}

/** Runs an example's script as pnpm would, with this test's node (all of them are `node ...`). */
function runScript(example: string, script: string, env: NodeJS.ProcessEnv) {
  const command = scriptsOf(example)[script];
  if (command === undefined) throw new Error(`examples/${example} has no script ${script}`);
  const [program, ...args] = command.split(' ');
  if (program !== 'node') throw new Error(`examples/${example} ${script} is not a node command`);
  return runCommand(process.execPath, args, {
    cwd: join(ROOT, 'examples', example),
    env,
    timeoutMs: RUN_TIMEOUT_MS,
  });
}

describe('example scripts', () => {
  it('every script besides start is run by a test', () => {
    const examples = readdirSync(join(ROOT, 'examples'), { withFileTypes: true }).filter((e) =>
      e.isDirectory(),
    );
    const scripts = examples.flatMap(({ name: example }) =>
      Object.keys(scriptsOf(example))
        .filter((script) => script !== 'start')
        .map((script) => `${example} ${script}`),
    );
    expect(scripts.sort()).toEqual(RUN_HERE);
  });

  it(
    'nodesdk-keep-exporter start:span-processors: AQM and the other OTLP backend both get every trace',
    async () => {
      const run = await runScript('nodesdk-keep-exporter', 'start:span-processors', cleanEnv());
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(
        printedTraces(run.stdout)
          .map((t) => t.prompt)
          .sort(),
      ).toEqual(['How early should I be at the airport?', 'Which documents do I need to fly to Canada?']);
      expect(run.stdout).toContain('The other backend received 2 traces; 2 of them are the ones above.');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'nodesdk-openai start:cjs (CommonJS) runs offline and prints the 2 recorded traces',
    async () => {
      const run = await runScript('nodesdk-openai', 'start:cjs', cleanEnv());
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(printedTraces(run.stdout)).toHaveLength(2);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'otlp-forwarder start with OTEL_EXPORTER_OTLP_PROTOCOL=http/json prints the 2 recorded traces',
    async () => {
      const env = cleanEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
      const run = await runScript('otlp-forwarder', 'start', env);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const printed = printedTraces(run.stdout);
      expect(printed).toHaveLength(2);
      for (const trace of printed) expect(trace.response).not.toBe('');
    },
    TEST_TIMEOUT_MS,
  );

  describe('app, with the variables a user sets', () => {
    const apiKey = `aqm_test_${randomBytes(12).toString('hex')}`;
    let server: RunningServer;
    let llm: FakeLlm;
    let client: AqmClient;
    let model: Record<string, string>;

    beforeAll(async () => {
      server = await startServer({ port: 0, apiKeys: [{ key: apiKey, projectId: 'scripts-test' }] });
      llm = await startFakeLlm({ port: 0 });
      client = new AqmClient({ apiKey, baseUrl: server.url });
      model = { OPENAI_BASE_URL: llm.url, OPENAI_API_KEY: 'test-key' };
    });
    afterAll(async () => {
      await client?.close();
      await llm?.close();
      await server?.close();
    });

    async function storedPrompts(applicationId: string): Promise<string[]> {
      const { data } = await client.traces.list(applicationId, { limit: 100 });
      return data.map((t) => t.prompt ?? '').sort();
    }

    it(
      'zero-code: the app preloaded with @aqm/auto sends its 3 calls',
      async () => {
        const { id } = await client.applications.create({ name: 'scripts-zero-code' });
        const env = cleanEnv({
          ...model,
          AQM_BASE_URL: server.url,
          AQM_API_KEY: apiKey,
          AQM_APPLICATION_ID: id,
        });
        const run = await runScript('zero-code', 'app', env);
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(await storedPrompts(id)).toHaveLength(3);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'otlp-forwarder: the app preloaded with telemetry.mjs sends its 2 calls through a forwarder',
      async () => {
        const { id } = await client.applications.create({ name: 'scripts-otlp-forwarder' });
        const forwarder = await startForwarder({ apiKey, baseUrl: server.url, applicationId: id, port: 0 });
        let run: Awaited<ReturnType<typeof runScript>>;
        try {
          run = await runScript('otlp-forwarder', 'app', {
            ...cleanEnv(model),
            OTEL_EXPORTER_OTLP_ENDPOINT: forwarder.url,
            OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
            OTEL_METRICS_EXPORTER: 'none',
          });
        } finally {
          // Completes the traces it holds and delivers them before resolving.
          await forwarder.close();
        }
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(await storedPrompts(id)).toEqual(
          [
            'How much checked baggage can I bring?',
            'What is your refund policy for cancelled flights?',
          ].sort(),
        );
      },
      TEST_TIMEOUT_MS,
    );
  });
});
