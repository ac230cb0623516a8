import { fileURLToPath } from 'node:url';
import type { AqmStats } from '@aqm/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastJsonLine, runChild } from './helpers/run-child.js';
import { startTestService, type TestService } from './helpers/service.js';

const CHILD = fileURLToPath(new URL('./fixtures/open-traces-child.mjs', import.meta.url));
const TRACES = 150;
const VALUE_MIB = 2;
const MAX_QUEUE_BYTES = 4 * 1024 * 1024;
/** What the held text may cost beyond the two bounds (open traces and queue): objects, copies, code. */
const CONSTANT_BYTES = 32 * 1024 * 1024;

interface Memory {
  heapUsed: number;
  rss: number;
  external: number;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

describe(`${TRACES} open traces (root never ends) with a ${VALUE_MIB} MiB prompt each, service down`, () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService('open-traces');
  });

  afterAll(async () => {
    await service?.close();
  });

  it('hold at most maxQueueBytes plus a constant, counted in stats()', async () => {
    const applicationId = await service.createApp('open-traces');
    service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
    const { code, stdout, stderr } = await runChild(
      CHILD,
      {
        AQM_BASE_URL: service.srv.url,
        AQM_API_KEY: service.apiKey,
        AQM_APPLICATION_ID: applicationId,
        TRACES: String(TRACES),
        VALUE_MIB: String(VALUE_MIB),
        MAX_QUEUE_BYTES: String(MAX_QUEUE_BYTES),
      },
      { args: ['--expose-gc'] },
    );
    expect(code, stderr).toBe(0);
    const report = lastJsonLine<{
      before: Memory;
      after: Memory;
      peakHeap: number;
      statsAfterProduction: AqmStats;
    }>(stdout);
    const growth = report.after.heapUsed - report.before.heapUsed;
    const stats = report.statsAfterProduction;
    console.info(
      `[open traces] heap ${mib(report.before.heapUsed)} -> ${mib(report.after.heapUsed)} after gc ` +
        `(peak ${mib(report.peakHeap)}), rss ${mib(report.before.rss)} -> ${mib(report.after.rss)}; ` +
        `stats ${JSON.stringify(stats)}`,
    );
    // After gc: what is retained. (The peak before gc also holds the app's own garbage: each
    // prompt and its JSON, 4 MiB a trace, not yet collected.)
    expect.soft(growth).toBeLessThanOrEqual(2 * MAX_QUEUE_BYTES + CONSTANT_BYTES);
    expect(stats.openTraceBytes).toBeLessThanOrEqual(MAX_QUEUE_BYTES);
    expect(stats.evictedForBytes).toBeGreaterThan(0);
    expect(stats.queuedBytes).toBeLessThanOrEqual(MAX_QUEUE_BYTES);
    // Every trace is accounted for: still open, held in the queue, or dropped.
    expect(stats.openTraces + stats.queuedTraces + stats.droppedTraces.total).toBe(TRACES);
  }, 70_000);
});
