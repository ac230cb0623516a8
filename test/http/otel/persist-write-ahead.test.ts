import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AqmStats } from '@aqm/otel';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RecordingProxy, startRecordingProxy } from './helpers/recording-proxy.js';
import { startTestService, storedTraces, type TestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const CHILD = fileURLToPath(new URL('./fixtures/write-ahead-child.mjs', import.meta.url));

/** A write-ahead child; `ids` are the trace ids it printed (handed over), `lines` its other lines. */
function startChild(env: Record<string, string>) {
  const child = spawn(process.execPath, [CHILD], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ids: string[] = [];
  const lines: Record<string, unknown>[] = [];
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (let end = stdout.indexOf('\n'); end >= 0; end = stdout.indexOf('\n')) {
      const line = JSON.parse(stdout.slice(0, end)) as Record<string, unknown>;
      if (typeof line.id === 'string') ids.push(line.id);
      else lines.push(line);
      stdout = stdout.slice(end + 1);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    ids,
    lines,
    stderr: () => stderr,
    exited,
    kill9: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

describe("persistMode 'write-ahead': kill -9 loses nothing handed over (child processes, the local service)", () => {
  let service: TestService;
  let proxy: RecordingProxy;
  let dir: string;

  beforeAll(async () => {
    service = await startTestService('persist-write-ahead');
    proxy = await startRecordingProxy(service.srv.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await service?.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aqm-write-ahead-'));
  });
  afterEach(async () => {
    service.srv.setFaults(null);
    await rm(dir, { recursive: true, force: true });
  });

  const envFor = (applicationId: string, mode: string) => ({
    AQM_BASE_URL: proxy.url,
    AQM_API_KEY: service.apiKey,
    AQM_APPLICATION_ID: applicationId,
    AQM_PERSIST_DIR: dir,
    MODE: mode,
  });

  /** Kills a streaming child once it handed over `count` traces; a successor drains the folder. */
  async function killThenDrain(applicationId: string, count: number, whileDown: () => void) {
    const app = startChild(envFor(applicationId, 'stream'));
    try {
      await waitFor(
        () => app.ids.length >= count,
        `the app to hand over ${count} traces`,
        30_000,
        app.stderr,
      );
    } finally {
      await app.kill9();
    }
    const handedOver = [...app.ids];
    whileDown();
    const successor = startChild(envFor(applicationId, 'drain'));
    expect(await successor.exited, successor.stderr()).toBe(0);
    const drained = successor.lines[0] as { stats: AqmStats };
    expect(drained.stats.droppedTraces.total).toBe(0);
    const stored = await storedTraces(service.client, applicationId);
    const missing = handedOver.filter((id) => !stored.traceIds.has(id));
    expect(missing, `${missing.length} of ${handedOver.length} handed over are missing`).toEqual([]);
    expect(stored.total).toBe(stored.traceIds.size); // each stored once
    expect(await readdir(join(dir, 'owners'))).toEqual([]);
    return { handedOver, stored };
  }

  it('during an outage (memory full, the rest in the log): every trace handed over before the kill is stored once', async () => {
    const applicationId = await service.createApp('write-ahead-outage');
    service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
    const { handedOver } = await killThenDrain(applicationId, 600, () => service.srv.setFaults(null));
    // Nothing was delivered before the kill: each trace went through the service exactly once.
    for (const id of handedOver) expect(proxy.accepted.get(id), id).toBe(1);
  }, 90_000);

  it('while the service answers: what was in memory and in flight at the kill is stored once', async () => {
    const applicationId = await service.createApp('write-ahead-live');
    await killThenDrain(applicationId, 1500, () => {});
  }, 90_000);
});
