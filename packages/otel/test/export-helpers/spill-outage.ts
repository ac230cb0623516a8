import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvaluationTrace } from '@aqm/wire';
import { afterEach, beforeEach } from 'vitest';
import { DiskSpill } from '../../src/spill/disk-spill.js';
import { CaptureLogger } from './capture-logger.js';
import { acceptReply, errorReply, FakeService } from './fake-service.js';
import { recordBytes } from './records.js';
import { createTestSender } from './sender-setup.js';

/** A fake service down (503) until `recover()`, and an empty folder for a DiskSpill, per test. */
export interface SpillOutage {
  service: () => FakeService;
  dir: () => string;
  /** The service answers again. */
  recover: () => void;
  /** A DiskSpill on the folder, with the batch bounds of `createTestSender`. */
  spillFor: (logger?: CaptureLogger, maxDiskBytes?: number) => DiskSpill;
  /**
   * A sender (manual time, not released) whose memory holds three records the size of `record`,
   * the rest going to a DiskSpill from `spillFor(logger)`; resolves once the spill takes writes.
   */
  senderOverSpill: (
    record: EvaluationTrace,
    logger?: CaptureLogger,
  ) => Promise<ReturnType<typeof createTestSender> & { spill: DiskSpill }>;
}

/**
 * For tests of a DiskSpill behind a TraceSender during an outage: registers the hooks that start
 * the service and make the folder (named `prefix…`) before each test, and close and remove them
 * after. Call at the top of a test file or a `describe`.
 */
export function withSpillOutage(prefix: string): SpillOutage {
  let service: FakeService | undefined;
  let dir: string | undefined;
  let down = true;
  beforeEach(async () => {
    service = await FakeService.start();
    down = true;
    service.handler = (request) => (down ? errorReply(503, 'down') : acceptReply(request));
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await service?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  const started = () => {
    if (service === undefined) throw new Error('withSpillOutage: no test is running');
    return service;
  };
  const folder = () => {
    if (dir === undefined) throw new Error('withSpillOutage: no test is running');
    return dir;
  };
  const spillFor = (logger = new CaptureLogger(), maxDiskBytes = 64 * 1024 * 1024) =>
    new DiskSpill({
      dir: folder(),
      maxDiskBytes,
      maxBatchTraces: 50,
      maxBatchBytes: 1024 * 1024,
      batchDelayMs: 0,
      logger,
    });
  return {
    service: started,
    dir: folder,
    recover: () => {
      down = false;
    },
    spillFor,
    async senderOverSpill(record, logger) {
      const spill = spillFor(logger);
      const made = createTestSender(started(), {
        maxQueueBytes: recordBytes(record) * 3 + 1,
        maxRetryElapsedMs: 600_000_000,
        overflow: spill,
        autoRelease: false,
      });
      spill.attach(made.sender);
      // Its first check of the folder is asynchronous; bounded by the test's own timeout.
      while (!spill.writable) await new Promise((resolve) => setTimeout(resolve, 5));
      return { ...made, spill };
    },
  };
}
