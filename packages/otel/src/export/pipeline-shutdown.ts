import type { DiagLogger } from '@opentelemetry/api';
import type { TraceAssembler } from '../assembly/trace-assembler.js';
import type { DiskSpill } from '../spill/disk-spill.js';
import type { DeliveryHealth } from './delivery-health.js';
import type { EvaluationsClient } from './service-submit.js';
import type { ThrottledReporter } from './throttled-reporter.js';
import type { TraceSender } from './trace-sender.js';

/** What {@link shutDownPipeline} stops, in order, all owned by the pipeline. */
export interface PipelineParts {
  assembler: TraceAssembler;
  health: DeliveryHealth;
  sender: TraceSender;
  spill: DiskSpill | undefined;
  client: EvaluationsClient;
  /** Whether the pipeline created `client` (then it closes its connection pool). */
  ownsClient: boolean;
  shutdownTimeoutMs: number;
  reporter: ThrottledReporter;
  logger: DiagLogger;
}

/**
 * Completes every open trace, sends what is queued within `shutdownTimeoutMs`, closes the disk
 * spill, then the connection pool of a client the pipeline created. Never rejects.
 */
export async function shutDownPipeline(parts: PipelineParts): Promise<void> {
  const { assembler, health, sender, spill, shutdownTimeoutMs } = parts;
  const startedAt = Date.now();
  try {
    assembler.flushAll();
    assembler.shutdown();
  } catch (error) {
    parts.reporter.report(
      'assembler',
      'error',
      `Open traces could not be completed at shutdown: ${String(error)}`,
    );
  }
  health.shutdownStarted();
  const droppedBefore = sender.stats().droppedTraces.byReason.shutdown ?? 0;
  await sender.shutdown(shutdownTimeoutMs);
  const dropped = (sender.stats().droppedTraces.byReason.shutdown ?? 0) - droppedBefore;
  health.undeliveredAtShutdown(dropped);
  // Bounded too: a disk that hangs must not hold shutdown (at least 1 s for the last writes).
  await spill?.close(Math.max(1000, shutdownTimeoutMs - (Date.now() - startedAt)));
  if (parts.ownsClient && parts.client.close !== undefined) {
    await closeClient(
      parts.client,
      Math.max(100, shutdownTimeoutMs - (Date.now() - startedAt)),
      parts.logger,
    );
  }
}

/** Closes the client's connection pool, waiting at most `waitMs`; a failure is logged. */
async function closeClient(client: EvaluationsClient, waitMs: number, logger: DiagLogger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
  });
  try {
    await Promise.race([Promise.resolve(client.close?.()), deadline]);
  } catch (error) {
    logger.warn(`Closing the connection pool failed: ${String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}
