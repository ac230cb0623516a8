import type { TracePipeline } from '@aqm/otel/pipeline';

/** What one request brings to one application: distinct traces and an estimate of their bytes. */
export interface Share {
  traces: number;
  bytes: number;
}

/** The bounds admission keeps, per application and in total. */
export interface AdmissionLimits {
  maxQueueTraces: number;
  maxQueueBytes: number;
  maxOpenTraces: number;
  /** Bytes held across all applications. */
  maxTotalQueueBytes: number;
  /** With `persistDir`: what memory cannot hold goes to disk, up to this. */
  maxDiskBytes: number | undefined;
}

/** Why a share was not admitted, and whether the same request may be taken later (503). */
export interface Refusal {
  reason: string;
  retryable: boolean;
}

/**
 * The record a trace becomes repeats its prompt and response next to the spans that carry them:
 * the bytes an open trace holds count double.
 */
const OPEN_BYTES_FACTOR = 2;

interface Load {
  traces: number;
  open: number;
  bytes: number;
  /** Bytes in the application's spill folder. */
  diskBytes: number;
}

/**
 * What is admitted for one application and not yet visible in its pipeline's counters: spans
 * waiting in the feed, roots waiting out their grace. Each part is released as it is handed over
 * (then the pipeline counts it as open or queued).
 */
export interface Reservation {
  /** Ends the reservation of `part` (traces and bytes now counted by the pipeline). */
  release(part: Share): void;
}

/**
 * Decides, before a request is answered, whether what it brings to an application fits: the
 * application's queued traces, its open ones, what earlier requests brought that is still on its
 * way (feed, held roots) and this request together must stay within `maxQueueTraces`,
 * `maxOpenTraces` and `maxQueueBytes` (with `persistDir`, the disk's free space adds to the
 * bytes), and all applications within `maxTotalQueueBytes`. What it admits is reserved at once,
 * so requests answered together cannot overshoot; each application is judged alone, so one
 * whose queue cannot drain does not refuse another's traces.
 */
export class Admission {
  readonly #limits: AdmissionLimits;
  readonly #pipelines: () => readonly TracePipeline[];
  readonly #transit = new Map<TracePipeline, Share>();

  constructor(limits: AdmissionLimits, pipelines: () => readonly TracePipeline[]) {
    this.#limits = limits;
    this.#pipelines = pipelines;
  }

  /** Traces and bytes admitted and still on their way to their pipelines. */
  get inTransit(): Share {
    const total: Share = { traces: 0, bytes: 0 };
    for (const share of this.#transit.values()) {
      total.traces += share.traces;
      total.bytes += share.bytes;
    }
    return total;
  }

  /** Whether `pipeline` could take one more small trace now (a cheap check before reading a body). */
  hasRoom(pipeline: TracePipeline): boolean {
    return this.#refusal(pipeline, { traces: 1, bytes: 1 }) === undefined;
  }

  /** Reserves `share` for `pipeline` when it fits; otherwise says why not. */
  admit(pipeline: TracePipeline, share: Share): { reservation: Reservation } | { refusal: Refusal } {
    const refusal = this.#refusal(pipeline, share);
    if (refusal !== undefined) return { refusal };
    const held = this.#transit.get(pipeline) ?? { traces: 0, bytes: 0 };
    held.traces += share.traces;
    held.bytes += share.bytes;
    this.#transit.set(pipeline, held);
    const left = { ...share };
    const release = (part: Share) => {
      // Never more than was reserved, whatever the caller's arithmetic.
      const traces = Math.min(left.traces, part.traces);
      const bytes = Math.min(left.bytes, part.bytes);
      left.traces -= traces;
      left.bytes -= bytes;
      held.traces -= traces;
      held.bytes -= bytes;
      if (held.traces <= 0 && held.bytes <= 0 && this.#transit.get(pipeline) === held)
        this.#transit.delete(pipeline);
    };
    return { reservation: { release } };
  }

  #refusal(pipeline: TracePipeline, share: Share): Refusal | undefined {
    const { maxQueueTraces, maxQueueBytes, maxOpenTraces, maxTotalQueueBytes, maxDiskBytes } = this.#limits;
    const disk = maxDiskBytes !== undefined;
    if (
      share.traces > maxOpenTraces ||
      (!disk && share.traces > maxQueueTraces) ||
      share.bytes > maxQueueBytes + (maxDiskBytes ?? 0)
    ) {
      return {
        reason: `their ${share.traces} trace(s) (about ${share.bytes} bytes) are more than the queue of an application holds`,
        retryable: false,
      };
    }
    const load = this.#load(pipeline);
    if (load.open + share.traces > maxOpenTraces || (!disk && load.traces + share.traces > maxQueueTraces)) {
      return { reason: `the queue of their application is full (${load.traces} traces)`, retryable: true };
    }
    // Memory takes what fits under the application's bound; with a disk, the rest goes there.
    const inMemory = Math.min(share.bytes, Math.max(0, maxQueueBytes - load.bytes));
    const toDisk = share.bytes - inMemory;
    let memoryTotal = 0;
    for (const other of this.#pipelines()) {
      const otherLoad = other === pipeline ? load : this.#load(other);
      memoryTotal += disk ? Math.min(otherLoad.bytes, maxQueueBytes) : otherLoad.bytes;
    }
    // Each application has a spill folder of its own, each up to maxDiskBytes: what is on it, what
    // memory already holds past its bound (on its way there) and this share's overflow must fit.
    const overflow = Math.max(0, load.bytes - maxQueueBytes);
    if (toDisk > 0 && (!disk || load.diskBytes + overflow + toDisk > maxDiskBytes)) {
      return {
        reason: `the queue of their application is full (${Math.round(load.bytes)} bytes${disk ? ', and persistDir too' : ''})`,
        retryable: true,
      };
    }
    if (memoryTotal + inMemory > maxTotalQueueBytes) {
      return {
        reason: `the forwarder holds ${Math.round(memoryTotal)} bytes for all applications (maxTotalQueueBytes ${maxTotalQueueBytes})`,
        retryable: true,
      };
    }
    return undefined;
  }

  #load(pipeline: TracePipeline): Load {
    const stats = pipeline.stats();
    const transit = this.#transit.get(pipeline) ?? { traces: 0, bytes: 0 };
    return {
      traces: stats.queuedTraces + stats.openTraces + transit.traces,
      open: stats.openTraces + transit.traces,
      bytes: stats.queuedBytes + OPEN_BYTES_FACTOR * stats.openTraceBytes + transit.bytes,
      diskBytes: stats.disk?.bytes ?? 0,
    };
  }
}
