import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../otel/helpers/service.js';
import { traceIdsOnDisk } from '../otel/helpers/spill-files.js';
import { waitFor } from '../otel/helpers/wait.js';
import { killForwarderProcesses, serviceEnv, startForwarderProcess } from './helpers/forwarder-process.js';
import { llmTraceSpans, postOtlp, protoBody } from './helpers/otlp-bodies.js';

// aqm-forwarder (the bin, a process of its own) with --persist-dir: its stderr says once that
// traces go to disk and, in the next process, how many were delivered from there; /metrics counts both.

const TRACES = 10;

let service: TestService;
let dir: string;
beforeAll(async () => {
  service = await startTestService('forwarder-disk-notices');
  dir = await mkdtemp(join(tmpdir(), 'aqm-forwarder-notices-'));
});
afterEach(() => {
  service.srv.setFaults(null);
  killForwarderProcesses();
});
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

function startBin(applicationId: string) {
  return startForwarderProcess(
    ['--port', '0', '--root-grace-ms', '0', '--max-queue-traces', '2', '--persist-dir', dir],
    serviceEnv(service, applicationId),
  );
}

async function counter(url: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1];
  return value === undefined ? undefined : Number(value);
}

/** Waits, reading /metrics every few milliseconds, until `name` is `expected`. */
async function untilCounter(url: string, name: string, expected: number, stderr: () => string) {
  let last: number | undefined;
  const deadline = Date.now() + 30_000;
  for (;;) {
    last = await counter(url, name);
    if (last === expected) return;
    if (Date.now() > deadline) throw new Error(`${name} is ${last}, not ${expected}; stderr: ${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const lines = (text: string, marker: string) => text.split('\n').filter((line) => line.includes(marker));

describe('aqm-forwarder --persist-dir: the disk said and counted', () => {
  it('the service down: one stderr line and /metrics counts what went to disk; the next process: how many were delivered', async () => {
    const applicationId = await service.createApp('forwarder-disk-notices');
    service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
    const first = await startBin(applicationId);
    const firstUrl = first.url;
    const ids: string[] = [];
    for (let i = 0; i < TRACES; i += 1) {
      const { traceId, spans } = llmTraceSpans(`disk question ${i}?`, `disk answer ${i}.`);
      ids.push(traceId);
      expect((await postOtlp(firstUrl, protoBody(spans))).status).toBe(200);
    }
    // Memory holds two (--max-queue-traces 2): the others go to disk while the forwarder runs.
    await untilCounter(
      firstUrl,
      'aqm_forwarder_disk_spilled_traces_total',
      TRACES - 2,
      () => first.output.stderr,
    );
    expect(await counter(firstUrl, 'aqm_forwarder_disk_replayed_traces_total')).toBe(0);
    // The two held in memory go to disk at shutdown, in the same spell: no second line.
    first.child.kill('SIGTERM');
    expect((await once(first.child, 'exit'))[0], first.output.stderr).toBe(0);
    const writing = lines(first.output.stderr, 'Writing traces to persistDir');
    expect(writing, first.output.stderr).toHaveLength(1);
    expect(writing[0]).toMatch(
      new RegExp(
        `^@aqm/forwarder: Writing traces to persistDir ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ` +
          '\\(the queue in memory is full \\(maxQueueTraces or maxQueueBytes\\)\\): [1-8] so far\\. ',
      ),
    );
    expect(lines(first.output.stderr, 'Delivered')).toEqual([]);
    expect((await traceIdsOnDisk(dir)).sort()).toEqual([...ids].sort());

    service.srv.setFaults(null);
    const next = await startBin(applicationId);
    const nextUrl = next.url;
    await untilCounter(nextUrl, 'aqm_forwarder_disk_replayed_traces_total', TRACES, () => next.output.stderr);
    await waitFor(
      () => lines(next.output.stderr, 'Delivered').length > 0,
      'the line saying the disk was emptied',
      15_000,
      () => next.output.stderr,
    );
    expect(await counter(nextUrl, 'aqm_forwarder_disk_spilled_traces_total')).toBe(0);
    expect(await counter(nextUrl, 'aqm_forwarder_disk_files')).toBe(0);
    next.child.kill('SIGTERM');
    expect((await once(next.child, 'exit'))[0], next.output.stderr).toBe(0);
    expect(next.output.stderr.split('\n').filter(Boolean)).toEqual([
      `@aqm/forwarder: Delivered ${TRACES} trace(s) from persistDir ${dir}; nothing waits there any more`,
    ]);
    for (const id of ids) expect((await service.client.traces.get(applicationId, id)).traceId).toBe(id);
    expect(first.output.stderr + next.output.stderr).not.toContain(service.apiKey);
  }, 90_000);
});
