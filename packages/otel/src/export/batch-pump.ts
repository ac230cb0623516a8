import type { DiagLogger } from '@opentelemetry/api';
import PQueue from 'p-queue';
import type { BatchDelivery, BatchState } from './batch-delivery.js';
import type { BatchLinger } from './batch-linger.js';
import type { HeldTraces } from './held-traces.js';
import type { PauseGate } from './pause-gate.js';
import type { QueuedTrace } from './queued-trace.js';
import type { SenderOptions } from './sender-types.js';

/** What a {@link BatchPump} uses of the sender that owns it. */
export interface PumpHost {
  readonly options: SenderOptions;
  readonly held: HeldTraces;
  readonly linger: BatchLinger;
  readonly pause: PauseGate;
  readonly delivery: BatchDelivery;
  readonly logger: DiagLogger;
  /** Whether shutdown has begun: a partial batch no longer waits to fill. */
  isClosing(): boolean;
  /** Whether the shutdown deadline has passed: nothing more is sent. */
  isStopped(): boolean;
}

/**
 * Takes batches off the held traces and hands them to p-queue for delivery, at most `concurrency`
 * at a time. A partial batch waits (up to `batchDelayMs`) for more traces; while sending is paused
 * a single batch probes the service and the rest wait.
 */
export class BatchPump {
  readonly #host: PumpHost;
  readonly #queue: PQueue;
  #activeBatches = 0;
  #scheduled = false;

  constructor(host: PumpHost) {
    this.#host = host;
    this.#queue = new PQueue({ concurrency: host.options.concurrency });
  }

  /** Batches being delivered (each holds a request slot). */
  get activeBatches(): number {
    return this.#activeBatches;
  }

  /** Pumps at the next microtask (once, however often it is asked for before then). */
  schedule(): void {
    if (this.#scheduled || this.#host.isStopped()) return;
    this.#scheduled = true;
    // A microtask, so traces ended in one synchronous loop fill batches instead of leaving one by one.
    queueMicrotask(() => this.#pump());
  }

  /** Forgets the batches not started yet (at shutdown, once nothing more is sent). */
  clear(): void {
    this.#queue.clear();
  }

  #pump(): void {
    this.#scheduled = false;
    const { options, held, linger, pause, delivery } = this.#host;
    while (!this.#host.isStopped() && held.waiting > 0 && this.#activeBatches < options.concurrency) {
      // While paused, a single batch probes the service; the rest wait in the queue.
      if (pause.paused && pause.probeActive) return;
      const { maxBatchTraces, maxBatchBytes } = options;
      const full = held.fillsBatch(maxBatchTraces, maxBatchBytes);
      const oldest = held.oldestWaiting as QueuedTrace; // waiting > 0
      // A partial batch waits (up to batchDelayMs) for more traces, unless a flush or shutdown waits on it.
      if (!this.#host.isClosing() && !linger.isDue(oldest, full)) return;
      const state: BatchState = { probe: pause.paused };
      if (state.probe) pause.probeActive = true;
      const batch = held.takeBatch(maxBatchTraces, maxBatchBytes);
      this.#activeBatches += 1;
      this.#queue
        .add(() => delivery.deliver(batch, state))
        .catch((error: unknown) =>
          this.#host.logger.error(`Unexpected error while sending traces: ${String(error)}`),
        )
        .finally(() => {
          this.#activeBatches -= 1;
          if (state.probe) pause.probeActive = false;
          this.schedule();
          options.overflow?.poke();
        });
    }
  }
}
