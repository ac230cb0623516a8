import { AqmClient } from '@aqm/client';
import type { SenderOptions } from '../../src/export/sender-types.js';
import { TraceSender } from '../../src/export/trace-sender.js';
import { CaptureLogger } from './capture-logger.js';
import type { FakeService } from './fake-service.js';
import { ManualTime } from './manual-time.js';

export const APPLICATION_ID = '3f1c2b4e-8a7d-4e2f-9b1a-0c6d5e4f3a2b';
/** Recognisable, so a test can check it never shows in a log line. */
export const API_KEY = 'sk-test-NEVER-LOG-THIS-7f3a9c';

/** A sender posting to `service` through a real AqmClient, with captured logs and manual time. */
export function createTestSender(
  service: FakeService,
  overrides: Partial<Omit<SenderOptions, 'submit' | 'timing' | 'logger'>> & {
    autoRelease?: boolean;
    requestTimeoutMs?: number;
  } = {},
) {
  const { autoRelease = true, requestTimeoutMs = 5000, ...senderOverrides } = overrides;
  const client = new AqmClient({
    apiKey: API_KEY,
    baseUrl: service.baseUrl,
    maxRetries: 0,
    timeoutMs: requestTimeoutMs,
  });
  const logger = new CaptureLogger();
  const time = new ManualTime(autoRelease);
  const sender = new TraceSender({
    submit: (traces, signal) =>
      client.evaluations.submitSerialized(APPLICATION_ID, traces, { signal, maxRetries: 0 }),
    applicationId: APPLICATION_ID,
    concurrency: 2,
    maxBatchTraces: 50,
    maxBatchBytes: 1024 * 1024,
    // These tests are about what is sent and when it is retried: batches go as soon as a slot is
    // free. The wait for a batch to fill has tests of its own (sender-batch-delay.test.ts).
    batchDelayMs: 0,
    maxQueueTraces: 2048,
    maxQueueBytes: 32 * 1024 * 1024,
    maxRetryElapsedMs: 300_000,
    maxValueChars: 32_768,
    ...senderOverrides,
    timing: time.timing,
    logger,
  });
  return { sender, client, logger, time };
}
