import { fileURLToPath } from 'node:url';
import type { AqmStats } from '@aqm/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastJsonLine, runChild } from './helpers/run-child.js';
import { startTestService, type TestService } from './helpers/service.js';

const CHILD = fileURLToPath(new URL('./fixtures/open-store-child.mjs', import.meta.url));
const MIB = 1024 * 1024;
/** The queue's bound, which open traces share (the queue itself is kept outside the heap, in Buffers). */
const MAX_QUEUE_BYTES = 12 * MIB;
/** Busy traces (about 60-120 KB estimated each) made after the bound first completed one early. */
const TRACES_PAST_BOUND = 60;
/** What the heap may hold per byte of the open-trace bound, once the bound is reached (issue #26). */
const MAX_HEAP_RATIO = 1.5;

interface Memory {
  heapUsed: number;
  rss: number;
  external: number;
}

const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;

// Traces whose root never ends are held whole until the byte bound completes the oldest: what
// the bound counts must be what they cost on the heap, whoever made the spans (the SDK in an app,
// the forwarder's decoding of OTLP).
describe.each(['sdk', 'forwarder'] as const)('open traces of busy requests, spans from %s', (mode) => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService(`open-heap-${mode}`);
  });

  afterAll(async () => {
    await service?.close();
  });

  it(`hold at most ${MAX_HEAP_RATIO}x their byte bound on the heap`, async () => {
    const applicationId = await service.createApp(`open-heap-${mode}`);
    const { code, stdout, stderr } = await runChild(
      CHILD,
      {
        AQM_BASE_URL: service.srv.url,
        AQM_API_KEY: service.apiKey,
        AQM_APPLICATION_ID: applicationId,
        MODE: mode,
        MAX_QUEUE_BYTES: String(MAX_QUEUE_BYTES),
        TRACES_PAST_BOUND: String(TRACES_PAST_BOUND),
      },
      { args: ['--expose-gc'], deadlineMs: 90_000 },
    );
    expect(code, stderr).toBe(0);
    const report = lastJsonLine<{
      before: Memory;
      after: Memory;
      made: number;
      heldRoots: number;
      statsAfterProduction: AqmStats;
      refusedAtBound: boolean;
    }>(stdout);
    const stats = report.statsAfterProduction;
    const growth = report.after.heapUsed - report.before.heapUsed;
    console.info(
      `[open traces, ${mode}] ${report.made} traces made, ${stats.openTraces} open, estimated ` +
        `${mib(stats.openTraceBytes)}; heap ${mib(report.before.heapUsed)} -> ${mib(report.after.heapUsed)} ` +
        `after gc (+${mib(growth)}, ${(growth / MAX_QUEUE_BYTES).toFixed(2)}x the bound, ` +
        `${(growth / stats.openTraceBytes).toFixed(2)}x the estimate), rss ${mib(report.after.rss)}`,
    );
    // The bound was reached: the pipeline completed traces early, or (the forwarder) admission,
    // which counts open traces before eviction would, answered 503. What is left open stays within it.
    expect(stats.evictedForBytes > 0 || report.refusedAtBound).toBe(true);
    expect(stats.openTraceBytes).toBeLessThanOrEqual(MAX_QUEUE_BYTES);
    expect(stats.queuedTraces).toBe(0);
    // The open traces are nearly all the heap grew by (the app's few open roots with them).
    expect(growth).toBeLessThanOrEqual(MAX_HEAP_RATIO * MAX_QUEUE_BYTES);
    // And the estimate is what they hold, wherever the bound stopped them.
    expect(growth).toBeLessThanOrEqual(MAX_HEAP_RATIO * stats.openTraceBytes);
  }, 100_000);
});
