import type { EncodedBody, Slab } from './utf8-slabs.js';

/**
 * How a queued trace ended: accepted by the service, given up, or (with `persistDir`) kept on
 * disk, to be sent from there later.
 */
export type DeliveryOutcome = 'delivered' | 'dropped' | 'persisted';

/** Why a trace was given up; the keys of `stats().droppedTraces.byReason`. */
export type DropReason =
  | 'queue-full'
  | 'retries-exhausted'
  | 'too-large'
  | 'rejected'
  | 'shutdown'
  | 'failed'
  /** Deleted from `persistDir` (oldest first) to stay within `maxDiskBytes`. */
  | 'disk-full';

/**
 * One trace in the sender's care, from enqueue until it is delivered or dropped. The record is
 * kept as its JSON in UTF-8: that is what `maxQueueBytes` counts, and it costs its byte size in
 * memory where the object graph would cost several times more; a request body is then a copy of
 * it, never a re-serialisation, however often a batch is retried. Bytes rather than a string:
 * a Buffer lives outside the V8 heap, so the young-generation collections that run while a burst
 * is queued do not copy every queued record from one semispace to the next (measured in a burst:
 * a third of the scavenge time, half the longest pause; bench/where-the-time-goes.md).
 */
export interface QueuedTrace {
  readonly traceId: string;
  /** The record's JSON, UTF-8 encoded. */
  body: Buffer;
  /** `body.byteLength`, kept in step with it (the queue's byte counts add these up). */
  bytes: number;
  /** Order of arrival in the queue (1, 2, ...): which traces a flush or an expired wait makes due. */
  readonly sequence: number;
  /** `Date.now()` when it was queued: how long a partial batch has waited. */
  readonly queuedAt: number;
  /** How many shrink steps were applied after the service answered 413 for this trace alone. */
  shrinkStep: number;
  /** Settles once, with the outcome. */
  readonly settled: Promise<DeliveryOutcome>;
  /** Resolves `settled` (with an outcome, or the promise of one); only the sender calls it, once. */
  readonly resolve: (outcome: DeliveryOutcome | PromiseLike<DeliveryOutcome>) => void;
  done: boolean;
  /** Read back from `persistDir`: its file stays on disk until it settles, so it is never written again. */
  readonly fromDisk?: boolean;
  /** The slab its body shares, released when it leaves the queue (see utf8-slabs.ts). */
  slab?: Slab | undefined;
}

/** Creates the queue entry of a record already encoded into its body (see utf8-slabs.ts). */
export function createQueuedTrace(traceId: string, encoded: EncodedBody, sequence: number): QueuedTrace {
  const entry = queuedTraceOfBody(traceId, encoded.body, sequence);
  entry.slab = encoded.slab;
  return entry;
}

/** Creates the queue entry of a record whose JSON is already UTF-8 bytes (read back from disk). */
export function queuedTraceOfBody(
  traceId: string,
  body: Buffer,
  sequence: number,
  extra: { queuedAt?: number; fromDisk?: boolean } = {},
): QueuedTrace {
  let resolve!: (outcome: DeliveryOutcome | PromiseLike<DeliveryOutcome>) => void;
  const settled = new Promise<DeliveryOutcome>((r) => {
    resolve = r;
  });
  return {
    traceId,
    body,
    bytes: body.byteLength,
    sequence,
    queuedAt: extra.queuedAt ?? Date.now(),
    shrinkStep: 0,
    settled,
    resolve,
    done: false,
    ...(extra.fromDisk === true ? { fromDisk: true } : {}),
  };
}

/** A ticket that is already settled: for a record dropped before it entered the queue. */
export const DROPPED: Promise<DeliveryOutcome> = Promise.resolve('dropped');
