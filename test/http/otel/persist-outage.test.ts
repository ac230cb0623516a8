import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AqmSpanProcessor } from '@aqm/otel';
import { diag } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { captureDiag } from './helpers/capture-diag.js';
import { endLlmTrace, endLlmTraces, providerWith } from './helpers/llm-trace.js';
import { type RecordingProxy, startRecordingProxy } from './helpers/recording-proxy.js';
import { startTestService, type TestService } from './helpers/service.js';
import { recordJson, writeSpillFile } from './helpers/spill-files.js';
import { waitFor } from './helpers/wait.js';

/** A short backoff, so recovery shows quickly (the schedule itself has unit tests). */
const FAST = { timing: { backoff: { initialMs: 20, factor: 2, maxMs: 200 } } };
const newTraceId = () => randomBytes(16).toString('hex');

describe('persistDir in one process, against the local service', () => {
  let service: TestService;
  let proxy: RecordingProxy;
  let dir: string;

  beforeAll(async () => {
    service = await startTestService('persist');
    proxy = await startRecordingProxy(service.srv.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await service?.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aqm-persist-'));
  });
  afterEach(async () => {
    service.srv.setFaults(null);
    diag.disable();
    await rm(dir, { recursive: true, force: true });
  });

  it('an outage longer than the memory bound holds: after recovery every trace arrives, none twice', async () => {
    const applicationId = await service.createApp('persist-outage');
    const processor = new AqmSpanProcessor(
      {
        apiKey: service.apiKey,
        baseUrl: proxy.url,
        applicationId,
        persistDir: dir,
        maxQueueBytes: 32 * 1024, // a few dozen traces
        maxBatchTraces: 20,
        batchDelayMs: 10,
        maxRetryElapsedMs: 600_000,
      },
      FAST,
    );
    const provider = providerWith(processor);
    const tracer = provider.getTracer('persist');
    try {
      service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
      const produced = [...endLlmTraces(tracer, 300, 'first'), ...endLlmTraces(tracer, 300, 'second')];
      await waitFor(
        () => {
          const { disk, queuedTraces } = processor.stats();
          return (disk?.spilledTraces ?? 0) + queuedTraces === produced.length;
        },
        'every trace on disk or in memory',
        15_000,
        () => JSON.stringify(processor.stats()),
      );
      const during = processor.stats();
      expect(during.droppedTraces.total).toBe(0);
      expect(during.disk?.spilledTraces).toBeGreaterThan(produced.length / 2); // memory held only a few
      expect(proxy.accepted.size).toBe(0);

      service.srv.setFaults(null);
      await waitFor(
        () => proxy.accepted.size === produced.length && processor.stats().disk?.traces === 0,
        'every trace accepted and the disk empty',
        30_000,
        () => `${proxy.accepted.size} accepted; ${JSON.stringify(processor.stats().disk)}`,
      );
      for (const traceId of produced) expect(proxy.accepted.get(traceId), traceId).toBe(1);
      const after = processor.stats();
      expect(after.disk?.replayedTraces).toBe(during.disk?.spilledTraces);
      expect(after.droppedTraces.total).toBe(0);
      expect((await readdir(dir)).filter((name) => name.endsWith('.aqmspill'))).toEqual([]);
    } finally {
      await provider.shutdown();
    }
  }, 60_000);

  it('shutdown during an outage puts what is held on disk; the next process on the folder sends it', async () => {
    const applicationId = await service.createApp('persist-deploy');
    service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
    const options = {
      apiKey: service.apiKey,
      baseUrl: proxy.url,
      applicationId,
      persistDir: dir,
      maxRetryElapsedMs: 600_000,
      shutdownTimeoutMs: 300,
    };
    const first = new AqmSpanProcessor(options, FAST);
    const firstProvider = providerWith(first);
    const produced = endLlmTraces(firstProvider.getTracer('deploy'), 100, 'deploy');
    await waitFor(() => first.stats().retries > 0, 'a failed submission');
    await firstProvider.shutdown(); // a deploy: the old process ends while the service is down
    const after = first.stats();
    expect(after.droppedTraces.total).toBe(0);
    expect(after.disk?.spilledTraces).toBe(produced.length);
    expect(await readdir(join(dir, 'owners'))).toEqual([]); // its claim folder is removed

    service.srv.setFaults(null);
    const second = new AqmSpanProcessor(options, FAST);
    try {
      await waitFor(
        () => produced.every((id) => proxy.accepted.has(id)) && second.stats().disk?.traces === 0,
        'the next process to send what the first left on disk',
      );
      for (const id of produced) expect(proxy.accepted.get(id)).toBe(1);
    } finally {
      await second.shutdown();
    }
  });

  it('only masked records reach the disk, never the API key, in owner-only files', async () => {
    const applicationId = await service.createApp('persist-private');
    service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
    const processor = new AqmSpanProcessor(
      {
        apiKey: service.apiKey,
        baseUrl: proxy.url,
        applicationId,
        persistDir: dir,
        maxQueueTraces: 1,
        mask: (value) => value.replace(/card 4\d{3}/g, 'card [masked]'),
        shutdownTimeoutMs: 200,
      },
      FAST,
    );
    const provider = providerWith(processor);
    try {
      const tracer = provider.getTracer('private');
      for (let i = 0; i < 20; i += 1) endLlmTrace(tracer, `my card 4${100 + i} was charged`, 'noted');
      await waitFor(() => (processor.stats().disk?.spilledTraces ?? 0) >= 19, 'the overflow on disk');
      const files = (await readdir(dir)).filter((name) => name.endsWith('.aqmspill'));
      const text = (await Promise.all(files.map((name) => readFile(join(dir, name), 'utf8')))).join('');
      expect(text).toContain('card [masked]');
      expect(text).not.toMatch(/card 4\d{3}/);
      expect(text).not.toContain(service.apiKey);
      for (const name of files) expect((await stat(join(dir, name))).mode & 0o777).toBe(0o600);
    } finally {
      await provider.shutdown();
    }
  });

  it('a truncated file goes to corrupt/ with a warning; the others are delivered', async () => {
    const applicationId = await service.createApp('persist-torn');
    const good: string[] = [];
    for (let file = 0; file < 3; file += 1) {
      const ids = Array.from({ length: 10 }, newTraceId);
      good.push(...ids);
      await writeSpillFile(
        dir,
        1_700_000_000_000 + file,
        ids.map((id) => ({ traceId: id, json: recordJson(id) })),
        file,
      );
    }
    const tornIds = Array.from({ length: 10 }, newTraceId);
    const torn = await writeSpillFile(
      dir,
      1_600_000_000_000, // the oldest: it is read first
      tornIds.map((id) => ({ traceId: id, json: recordJson(id) })),
      9,
    );
    const whole = await readFile(join(dir, torn));
    await writeFile(join(dir, torn), whole.subarray(0, Math.floor(whole.length / 2))); // a crash mid-write
    const logs = captureDiag();
    const processor = new AqmSpanProcessor(
      { apiKey: service.apiKey, baseUrl: proxy.url, applicationId, persistDir: dir },
      FAST,
    );
    try {
      await waitFor(
        () => good.every((id) => proxy.accepted.has(id)) && processor.stats().disk?.traces === 0,
        'the whole files delivered',
        15_000,
        () => JSON.stringify(processor.stats().disk),
      );
      for (const id of good) expect(proxy.accepted.get(id)).toBe(1);
      for (const id of tornIds) expect(proxy.accepted.has(id)).toBe(false);
      expect(processor.stats().disk?.corruptFiles).toBe(1);
      expect(await readdir(join(dir, 'corrupt'))).toEqual([expect.stringContaining(torn)]);
      expect(logs.at('warn').filter((line) => line.includes('corrupt/'))).toHaveLength(1);
    } finally {
      await processor.shutdown();
    }
  });

  it('a folder that cannot be written: no throw, memory only, said once', async () => {
    const applicationId = await service.createApp('persist-unwritable');
    const file = join(dir, 'a-file');
    await writeFile(file, 'not a folder');
    const logs = captureDiag();
    service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
    const processor = new AqmSpanProcessor(
      {
        apiKey: service.apiKey,
        baseUrl: proxy.url,
        applicationId,
        persistDir: join(file, 'spill'), // ENOTDIR, even for root
        maxQueueTraces: 20,
        maxRetryElapsedMs: 600_000,
      },
      FAST,
    );
    const provider = providerWith(processor);
    try {
      await waitFor(() => logs.at('warn').some((line) => line.includes('refuses writes')), 'the warning');
      const produced = endLlmTraces(provider.getTracer('unwritable'), 50, 'unwritable');
      const stats = processor.stats();
      expect(stats.disk?.writable).toBe(false);
      expect(stats.queuedTraces).toBe(20);
      expect(stats.droppedTraces.byReason['queue-full']).toBe(produced.length - 20);
      expect(logs.at('warn').filter((line) => line.includes('refuses writes'))).toHaveLength(1);
      service.srv.setFaults(null);
      await processor.forceFlush();
      expect(processor.stats().exportedTraces).toBe(20);
    } finally {
      await provider.shutdown();
    }
  });

  it('a 200 MiB backlog at start-up does not delay the app: its first request is answered at once', async () => {
    // The backlog: 200 files of 1 MiB written directly, as a process killed in an outage leaves them.
    const record = (id: string) => recordJson(id, 10_000);
    for (let file = 0; file < 200; file += 1) {
      const records = Array.from({ length: 100 }, () => {
        const id = newTraceId();
        return { traceId: id, json: record(id) };
      });
      await writeSpillFile(dir, 1_700_000_000_000 + file, records, file);
    }
    // The service is still down: nothing of the backlog can leave, so the app cannot be waiting on it.
    const down = await startRecordingProxy(service.srv.url, () => ({
      answer: { status: 503, body: { success: false, message: 'down' } },
    }));
    const app = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    try {
      const processor = new AqmSpanProcessor(
        {
          apiKey: service.apiKey,
          baseUrl: down.url,
          applicationId: await service.createApp('persist-backlog'),
          persistDir: dir,
          shutdownTimeoutMs: 200,
        },
        FAST,
      );
      const { port } = app.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/`);
      expect(await answer.text()).toBe('ok');
      // Answered while (nearly) the whole backlog is still on disk, unsent.
      expect(processor.stats().disk?.replayedTraces).toBe(0);
      await waitFor(
        () => (processor.stats().disk?.traces ?? 0) >= 19_900,
        'the backlog scanned in the background',
      );
      await processor.shutdown();
    } finally {
      app.close();
      await down.close();
    }
  }, 60_000);
});
