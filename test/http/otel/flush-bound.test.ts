import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AqmStats } from '@aqm/otel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lastJsonLine, runChild } from './helpers/run-child.js';
import { startTestService, storedTraces, type TestService } from './helpers/service.js';
import { startSpillChild, traceIdsOnDisk } from './helpers/spill-files.js';

const CHILD = fileURLToPath(new URL('./fixtures/flush-bound-child.mjs', import.meta.url));
const FLUSH_TIMEOUT_MS = 2000;
/**
 * Added to the bound for a loaded machine (timers firing late, a slow disk). An upper bound, not a
 * timing: without the bound the flush waits for maxRetryElapsedMs (5 min) and the child is killed
 * at its 60 s deadline, so these tests fail on the code before it.
 */
const LOAD_MARGIN_MS = 1500;
const TRACES = 5;

interface FlushReport {
  ids: string[];
  flushMs: number;
  stats: AqmStats;
}

describe('forceFlush() during an outage resolves within flushTimeoutMs (real processes, the local service)', () => {
  let service: TestService;
  let dir: string | undefined;

  beforeAll(async () => {
    service = await startTestService('flush-bound');
  });
  afterAll(async () => {
    await service?.close();
  });
  afterEach(async () => {
    service.srv.setFaults(null);
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const envFor = (applicationId: string, extra: Record<string, string> = {}) => ({
    AQM_BASE_URL: service.srv.url,
    AQM_API_KEY: service.apiKey,
    AQM_APPLICATION_ID: applicationId,
    AQM_FLUSH_TIMEOUT_MS: String(FLUSH_TIMEOUT_MS),
    TRACES: String(TRACES),
    // No logging set up: the message must reach stderr by itself.
    OTEL_LOG_LEVEL: '',
    AQM_DEBUG: '',
    AQM_PERSIST_DIR: '',
    ...extra,
  });

  it('without persistDir (the service answers 503): resolves at the bound and says the traces stay queued in memory', async () => {
    const applicationId = await service.createApp('flush-bound-memory');
    service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
    const run = await runChild(CHILD, envFor(applicationId));
    expect(run.code, run.stderr).toBe(0);
    const report = lastJsonLine<FlushReport>(run.stdout);
    expect(report.flushMs).toBeLessThan(FLUSH_TIMEOUT_MS + LOAD_MARGIN_MS);
    expect(report.stats.queuedTraces).toBe(TRACES);
    expect(report.stats.droppedTraces.total).toBe(0);
    const said = run.stderr.split('\n').filter((line) => line.includes('forceFlush() stopped waiting'));
    expect(said).toHaveLength(1); // once
    expect(said[0]).toContain(`flushTimeoutMs (${FLUSH_TIMEOUT_MS} ms)`);
    expect(said[0]).toContain(`${TRACES} trace(s)`);
    expect(said[0]).toContain('stay queued in memory');
    expect(said[0]).toContain('lost if the process exits first');
    expect(said[0]).toContain('503');
    expect(run.stderr).not.toContain(service.apiKey);
  });

  it.each([
    ['answers 503', { status: 503 }],
    ['accepts the connection but never answers', { hang: true }],
  ] as const)(
    'with persistDir (the service %s): the traces are on disk when it resolves, and a later process delivers them',
    async (_label, fault) => {
      const applicationId = await service.createApp('flush-bound-disk');
      dir = await mkdtemp(join(tmpdir(), 'aqm-flush-bound-'));
      service.srv.setFaults({ rules: [{ route: 'evaluations.submit', ...fault }] });
      const run = await runChild(CHILD, envFor(applicationId, { AQM_PERSIST_DIR: dir }));
      expect(run.code, run.stderr).toBe(0);
      const report = lastJsonLine<FlushReport>(run.stdout);
      expect(report.flushMs).toBeLessThan(FLUSH_TIMEOUT_MS + LOAD_MARGIN_MS);
      expect(report.stats.queuedTraces).toBe(0);
      expect(report.stats.droppedTraces.total).toBe(0);
      // On disk before the process exited (it called process.exit() right after the flush).
      expect((await traceIdsOnDisk(dir)).sort()).toEqual([...report.ids].sort());
      const said = run.stderr.split('\n').filter((line) => line.includes('forceFlush() stopped waiting'));
      expect(said).toHaveLength(1);
      expect(said[0]).toContain(`${TRACES} trace(s) not delivered yet were written to persistDir (${dir})`);
      expect(run.stderr).not.toContain(service.apiKey);

      service.srv.setFaults(null);
      const successor = startSpillChild({
        AQM_BASE_URL: service.srv.url,
        AQM_API_KEY: service.apiKey,
        AQM_APPLICATION_ID: applicationId,
        AQM_PERSIST_DIR: dir,
        MODE: 'drain',
      });
      expect(await successor.exited, successor.stderr()).toBe(0);
      const stored = await storedTraces(service.client, applicationId);
      expect([...stored.traceIds].sort()).toEqual([...report.ids].sort());
      expect(await traceIdsOnDisk(dir)).toEqual([]);
    },
    60_000,
  );
});
