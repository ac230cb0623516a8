import { fileURLToPath } from 'node:url';
import type { AqmStats } from '@aqm/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastJsonLine, runChild } from './helpers/run-child.js';
import { startTestService, type TestService } from './helpers/service.js';

const TRACES = 100_000;
const MAX_QUEUE_BYTES = 8 * 1024 * 1024;
const CONSTANT_BYTES = 64 * 1024 * 1024;
const CHILD_DEADLINE_MS = 60_000;
const CHILD = fileURLToPath(new URL('./fixtures/memory-bound-child.mjs', import.meta.url));

/** What the child reports on stdout. */
interface ChildReport {
  traces: number;
  baselineRss: number;
  peakRss: number;
  peakDuringRss: number;
  afterGcRss: number;
  productionMs: number;
  shutdownMs: number;
  statsAfterProduction: AqmStats;
  statsAfterShutdown: AqmStats;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

describe(`service down, ${TRACES} traces produced (child process)`, () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService('memory');
  });

  afterAll(async () => {
    await service?.close();
  });

  it('memory stays within maxQueueBytes plus a constant, and the drops are counted', async () => {
    const applicationId = await service.createApp('memory');
    service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
    const { code, stdout, stderr, ms } = await runChild(
      CHILD,
      {
        AQM_BASE_URL: service.srv.url,
        AQM_API_KEY: service.apiKey,
        AQM_APPLICATION_ID: applicationId,
        TRACES: String(TRACES),
        MAX_QUEUE_BYTES: String(MAX_QUEUE_BYTES),
      },
      { args: ['--expose-gc'], deadlineMs: CHILD_DEADLINE_MS },
    );
    expect(code, stderr).toBe(0);
    const report = lastJsonLine<ChildReport>(stdout);
    const growth = report.peakRss - report.baselineRss;
    console.info(
      `[memory] baseline ${mib(report.baselineRss)}, peak ${mib(report.peakRss)} (growth ${mib(growth)}), ` +
        `after gc ${mib(report.afterGcRss)}; production ${report.productionMs.toFixed(0)} ms, ` +
        `shutdown ${report.shutdownMs.toFixed(0)} ms, child ran ${ms.toFixed(0)} ms; ` +
        `stats ${JSON.stringify(report.statsAfterProduction)}`,
    );

    // Soft, so the accounting below is still checked (and reported) when the memory bound fails.
    expect.soft(growth).toBeLessThanOrEqual(MAX_QUEUE_BYTES + CONSTANT_BYTES);
    const stats = report.statsAfterProduction;
    expect(stats.queuedBytes).toBeLessThanOrEqual(MAX_QUEUE_BYTES);
    expect(stats.droppedTraces.byReason['queue-full']).toBeGreaterThan(0);
    expect(stats.exportedTraces).toBe(0);
    // Every trace is accounted for: held (waiting or in flight) or dropped.
    expect(stats.inFlight).toBeLessThanOrEqual(stats.queuedTraces);
    expect(stats.queuedTraces + stats.droppedTraces.total).toBe(TRACES);
    // The service was asked (and failed): the held traces really were being sent.
    expect(service.srv.requestCount('evaluations.submit')).toBeGreaterThan(0);
    // Shut down: what was held is given up and counted too.
    const after = report.statsAfterShutdown;
    expect(after.droppedTraces.total).toBe(TRACES);
    expect(after.droppedTraces.byReason.shutdown).toBe(stats.queuedTraces);
    expect(after.queuedTraces).toBe(0);
  }, 70_000);
});
