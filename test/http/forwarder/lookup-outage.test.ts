import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AqmClient } from '@aqm/client';
import { inspectSpillFolder } from '@aqm/otel/spill';
import type { RunningServer } from '@aqm/server';
import { afterEach, describe, expect, it } from 'vitest';
import { lateService } from '../otel/helpers/late-service.js';
import { waitFor } from '../otel/helpers/wait.js';
import { killForwarderProcesses, startForwarderProcess, stopForwarder } from './helpers/forwarder-process.js';
import { jsonBody, llmTraceSpans, postOtlp, protoBody } from './helpers/otlp-bodies.js';

const API_KEY = `forwarder-lookup-outage-${randomUUID()}`;
const outage = lateService([{ key: API_KEY, projectId: 'forwarder-lookup-outage' }]);

const dirs: string[] = [];
afterEach(async () => {
  killForwarderProcesses();
  await outage.closeAll();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Posts `count` complete LLM traces; returns their trace ids and prompts. */
async function postTraces(url: string, count: number, label: string): Promise<Map<string, string>> {
  const sent = new Map<string, string>();
  for (let index = 0; index < count; index += 1) {
    const prompt = `${label} question ${index}?`;
    const { traceId, spans } = llmTraceSpans(prompt, `${label} answer ${index}.`);
    const answer = await postOtlp(url, protoBody(spans));
    expect(answer.status).toBe(200);
    sent.set(traceId, prompt);
  }
  return sent;
}

/** The prompts the service stored for the application named `name`, by trace id. */
async function storedPrompts(server: RunningServer, name: string): Promise<Map<string, string>> {
  const client = new AqmClient({ apiKey: API_KEY, baseUrl: server.url });
  try {
    const stored = new Map<string, string>();
    const application = (await client.applications.list({ search: name })).data.find(
      (candidate) => candidate.name === name,
    );
    if (application === undefined) return stored;
    for await (const summary of client.traces.iterate(application.id)) {
      stored.set(summary.traceId, (await client.traces.get(application.id, summary.traceId)).prompt);
    }
    return stored;
  } finally {
    await client.close();
  }
}

async function waitForStored(server: RunningServer, name: string, expected: Map<string, string>) {
  let stored = new Map<string, string>();
  const deadline = Date.now() + 30_000;
  while (stored.size < expected.size && Date.now() < deadline) {
    stored = await storedPrompts(server, name);
    if (stored.size < expected.size) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(stored).toEqual(expected);
}

/**
 * Each test starts one or two forwarder processes; a forwarder stopped during an outage waits its
 * shutdown bound (10 s) before writing to disk, and an application named by a resource is looked
 * up again on a backoff that reaches 16 s: more than the default 30 s on a loaded machine.
 */
const FORWARDER_RUNS_TIMEOUT_MS = 90_000;

describe('a forwarder whose application is named while the service is down at start', {
  timeout: FORWARDER_RUNS_TIMEOUT_MS,
}, () => {
  it('keeps the traces in memory and delivers them once the service answers', async () => {
    const port = await outage.stoppedPort();
    const name = `down-at-start-${randomUUID()}`;
    const forwarder = await startForwarderProcess(['--port', '0'], {
      AQM_API_KEY: API_KEY,
      AQM_BASE_URL: `http://127.0.0.1:${port}/api`,
      AQM_APPLICATION_NAME: name,
    });
    const sent = await postTraces(forwarder.url, 3, 'memory');

    const server = await outage.startOn(port);
    await waitForStored(server, name, sent);
    expect(await stopForwarder(forwarder)).toBe(0);
    expect(forwarder.output.stdout).toContain('stopped (3 traces delivered, 0 dropped)');
  });

  it('with AQM_PERSIST_DIR, a forwarder stopped during the outage leaves the traces on disk, and the next one delivers them', async () => {
    const port = await outage.stoppedPort();
    const name = `down-at-start-disk-${randomUUID()}`;
    const persistDir = mkdtempSync(join(tmpdir(), 'aqm-forwarder-lookup-'));
    dirs.push(persistDir);
    const env = {
      AQM_API_KEY: API_KEY,
      AQM_BASE_URL: `http://127.0.0.1:${port}/api`,
      AQM_APPLICATION_NAME: name,
    };
    const first = await startForwarderProcess(['--port', '0', '--persist-dir', persistDir], env);
    const sent = await postTraces(first.url, 3, 'disk');
    // Said once on stderr while it lasts... then stopped before the service is back.
    const code = await stopForwarder(first);
    expect(code).toBe(0);
    const report = await inspectSpillFolder(persistDir);
    expect(report.waiting.traces).toBe(sent.size);

    const server = await outage.startOn(port);
    const second = await startForwarderProcess(['--port', '0', '--persist-dir', persistDir], env);
    await waitForStored(server, name, sent);
    expect(await stopForwarder(second)).toBe(0);
  });

  it('a key the service refuses (401) stops delivery, said once at start and once by the pipeline; the traces are kept for a fixed key', async () => {
    const server = await outage.startOn(await outage.stoppedPort());
    const name = `refused-key-${randomUUID()}`;
    const persistDir = mkdtempSync(join(tmpdir(), 'aqm-forwarder-lookup-'));
    dirs.push(persistDir);
    const env = { AQM_BASE_URL: server.url, AQM_APPLICATION_NAME: name };
    const refused = await startForwarderProcess(['--port', '0', '--persist-dir', persistDir], {
      ...env,
      AQM_API_KEY: 'not-a-key-of-the-service',
    });
    const sent = await postTraces(refused.url, 3, 'refused');
    await waitFor(
      () => refused.output.stderr.includes('Sending is paused'),
      'the pause said',
      15_000,
      () => refused.output.stderr,
    );
    expect(await stopForwarder(refused)).toBe(0);
    const lines = refused.output.stderr.trim().split('\n');
    expect(lines.filter((line) => line.includes('(401)'))).toEqual([
      expect.stringContaining(
        `The service rejected the API key (401) while looking up application "${name}": check AQM_API_KEY; ` +
          'its traces will not be delivered until that is fixed',
      ),
      expect.stringContaining('The service rejected the API key (401). Check AQM_API_KEY'),
    ]);
    // Before, the lookup's rejection dropped every trace (reason failed), though answered 200.
    expect(refused.output.stderr).not.toContain('dropped');
    expect(await inspectSpillFolder(persistDir)).toMatchObject({ waiting: { traces: sent.size } });

    const fixed = await startForwarderProcess(['--port', '0', '--persist-dir', persistDir], {
      ...env,
      AQM_API_KEY: API_KEY,
    });
    await waitForStored(server, name, sent);
    expect(await stopForwarder(fixed)).toBe(0);
    // The one line saying the disk was emptied, and nothing else.
    expect(fixed.output.stderr).toBe(
      `@aqm/forwarder: Delivered ${sent.size} trace(s) from persistDir ${persistDir}; nothing waits there any more\n`,
    );
  });

  it('an application named by a resource: while the lookup cannot reach the service the request gets 503 (the sender keeps it), never 200 and a drop', async () => {
    const port = await outage.stoppedPort();
    const name = `from-resource-${randomUUID()}`;
    const forwarder = await startForwarderProcess(
      ['--port', '0', '--application-from-resource', '--create-applications', '--root-grace-ms', '0'],
      { AQM_API_KEY: API_KEY, AQM_BASE_URL: `http://127.0.0.1:${port}/api` },
    );
    const { traceId, spans } = llmTraceSpans('resource question?', 'resource answer.');
    const body = JSON.parse(jsonBody(spans).toString('utf8'));
    for (const resourceSpans of body.resourceSpans)
      resourceSpans.resource.attributes.push({ key: 'service.name', value: { stringValue: name } });
    const post = () =>
      postOtlp(forwarder.url, Buffer.from(JSON.stringify(body)), { contentType: 'application/json' });

    const during = await post();
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).not.toBeNull();

    const server = await outage.startOn(port);
    // The sender's retry: answered 200 once the lookup found (here: created) the application.
    let after = await post();
    const deadline = Date.now() + 45_000;
    while (after.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await post();
    }
    expect(after.status).toBe(200);
    await waitForStored(server, name, new Map([[traceId, 'resource question?']]));
    expect(await stopForwarder(forwarder)).toBe(0);
    expect(forwarder.output.stdout).toContain('stopped (1 traces delivered, 0 dropped)');
  });
});
