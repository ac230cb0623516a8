/** How a queued trace ended: accepted by the service, or given up. */
export type DeliveryOutcome = 'delivered' | 'dropped';

/** Why a trace was given up; the keys of `stats().droppedTraces.byReason`. */
export type DropReason =
  | 'queue-full'
  | 'retries-exhausted'
  | 'too-large'
  | 'rejected'
  | 'shutdown'
  | 'failed';

/**
 * One trace in the sender's care, from enqueue until it is delivered or dropped. The record is
 * kept as its JSON text: that is what `maxQueueBytes` counts, and a string costs about its byte
 * size in memory where the object graph would cost several times more; and a request body is
 * then a copy of it, never a re-serialisation, however often a batch is retried.
 */
export interface QueuedTrace {
  readonly traceId: string;
  json: string;
  /** UTF-8 bytes of `json`, computed once (and again only when the record is shrunk). */
  bytes: number;
  /** Order of arrival in the queue (1, 2, ...): which traces a flush or an expired wait makes due. */
  readonly sequence: number;
  /** `Date.now()` when it was queued: how long a partial batch has waited. */
  readonly queuedAt: number;
  /** How many shrink steps were applied after the service answered 413 for this trace alone. */
  shrinkStep: number;
  /** Settles once, with the outcome. */
  readonly settled: Promise<DeliveryOutcome>;
  /** Resolves `settled`; only the sender calls it, once. */
  readonly resolve: (outcome: DeliveryOutcome) => void;
  done: boolean;
}

/** Creates the queue entry of a record already serialised to JSON. */
export function createQueuedTrace(traceId: string, json: string, sequence: number): QueuedTrace {
  let resolve!: (outcome: DeliveryOutcome) => void;
  const settled = new Promise<DeliveryOutcome>((r) => {
    resolve = r;
  });
  return {
    traceId,
    json,
    bytes: Buffer.byteLength(json, 'utf8'),
    sequence,
    queuedAt: Date.now(),
    shrinkStep: 0,
    settled,
    resolve,
    done: false,
  };
}

/** A ticket that is already settled: for a record dropped before it entered the queue. */
export const DROPPED: Promise<DeliveryOutcome> = Promise.resolve('dropped');
