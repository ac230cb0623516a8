import type { TracePipeline } from '@aqm/otel/pipeline';

/** The delay told while the service takes traces: the queue then frees room within about a second. */
export const RETRY_AFTER_WHILE_DELIVERING_SECONDS = 1;

/** How recent the service's last acceptance must be for a queue to count as draining. */
const DRAINING_WINDOW_MS = 5000;

/**
 * The delay a refused sender is told to wait (HTTP `Retry-After`, gRPC `RetryInfo`), in seconds.
 * While the service takes the requests of every application that holds traces, a full queue (or
 * the bodies in flight) drains at the pace the forwarder maps and sends, so room comes within a
 * second; telling senders to wait `retryAfterSeconds` (5 s by default) then leaves the forwarder
 * idle behind them: measured at 10,000 traces/s, each refusal parked a Collector consumer for 5 s,
 * and 3,300 traces/s were delivered where the forwarder could do 5,900. Otherwise (requests to the
 * service failing, hanging, or none accepted yet) the queue waits for the service: the configured
 * delay.
 *
 * @example
 * const delay = retryDelay(5, () => router.pipelines);
 * reply.header('retry-after', String(delay()));
 */
export function retryDelay(
  configuredSeconds: number,
  pipelines: () => readonly TracePipeline[],
): () => number {
  const whileDraining = Math.min(configuredSeconds, RETRY_AFTER_WHILE_DELIVERING_SECONDS);
  const waitsForService = (pipeline: TracePipeline) => {
    if (pipeline.deliveredWithin(DRAINING_WINDOW_MS)) return false;
    const { queuedTraces, openTraces } = pipeline.stats();
    return queuedTraces + openTraces > 0;
  };
  return () => (pipelines().some(waitsForService) ? configuredSeconds : whileDraining);
}
