import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, storedTraces, type TestService } from '../otel/helpers/service.js';
import { killForwarderProcesses, serviceEnv, startForwarderProcess } from './helpers/forwarder-process.js';
import { llmTraceSpans, postOtlp, protoBody } from './helpers/otlp-bodies.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService('forwarder-write-ahead');
});
afterEach(() => {
  service.srv.setFaults(null);
  killForwarderProcesses();
});
afterAll(async () => {
  await service?.close();
});

/** Starts the bin on a free port with `persistDir` in write-ahead mode; resolves with its URL. */
function startForwarder(dir: string, applicationId: string, mode = 'write-ahead') {
  return startForwarderProcess(
    ['--port', '0', '--persist-dir', dir, '--persist-mode', mode, '--trace-idle-ms', '1500'],
    serviceEnv(service, applicationId),
  );
}

describe('aqm-forwarder --persist-mode write-ahead: a 200 means on disk (kill -9, the local service)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aqm-fwd-wal-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('every trace answered 200 before a kill -9 is stored once, whole, after a restart', async () => {
    const applicationId = await service.createApp('forwarder-write-ahead');
    // The service refuses every batch: what the forwarder took stays in its memory and on disk.
    service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
    const first = await startForwarder(dir, applicationId);
    const answered = new Map<string, string>();
    // Whole traces in one request, and traces split over two (their root second, or not yet sent:
    // open at the kill, completed by the next forwarder's idle timeout).
    for (let i = 0; i < 60; i += 1) {
      const prompt = `write-ahead question ${i}?`;
      const { traceId, spans } = llmTraceSpans(prompt, `answer ${i}.`);
      const kind = i % 3;
      const parts =
        kind === 0 ? [spans] : kind === 1 ? [spans.slice(0, -1), spans.slice(-1)] : [spans.slice(0, -1)];
      for (const part of parts) expect((await postOtlp(first.url, protoBody(part))).status).toBe(200);
      answered.set(traceId, prompt);
    }
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    expect((await readdir(join(dir, 'requests'))).length).toBeGreaterThan(0);

    service.srv.setFaults(null);
    const second = await startForwarder(dir, applicationId);
    let stored = await storedTraces(service.client, applicationId);
    const allThere = async () => {
      stored = await storedTraces(service.client, applicationId);
      return [...answered.keys()].every((id) => stored.traceIds.has(id));
    };
    const deadline = Date.now() + 60_000;
    while (!(await allThere()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const missing = [...answered.keys()].filter((id) => !stored.traceIds.has(id));
    expect(
      missing,
      `${missing.length} of ${answered.size} answered 200 are missing; ${second.output.stderr}`,
    ).toEqual([]);
    expect(stored.total).toBe(stored.traceIds.size); // each stored once
    for (const [traceId, prompt] of answered) {
      // Whole: the record was made from all of the trace's spans (its prompt is the chat span's).
      expect((await service.client.traces.get(applicationId, traceId)).prompt).toBe(prompt);
    }
    second.child.kill('SIGTERM');
    expect((await once(second.child, 'exit'))[0]).toBe(0);
    expect(await readdir(join(dir, 'requests'))).toEqual([]);
  }, 120_000);
});
