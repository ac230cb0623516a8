import { createQueuedTrace, type DeliveryOutcome, type QueuedTrace } from './queued-trace.js';
import { RecordQueue } from './record-queue.js';
import { ownBody, Utf8Slabs } from './utf8-slabs.js';

/** JSON around the records of a request body: `{"traces":[...]}`. */
const BODY_OVERHEAD_BYTES = 12;

/**
 * Every trace the sender holds, waiting for a batch or in flight, with their JSON bytes: what
 * `maxQueueTraces`/`maxQueueBytes` bound (in-flight traces count, so memory during an outage is
 * bounded by `maxQueueBytes` plus a constant) and what a flush waits for.
 */
export class HeldTraces {
  readonly #waiting = new RecordQueue();
  readonly #live = new Set<QueuedTrace>();
  readonly #slabs = new Utf8Slabs();
  #bytes = 0;

  /** Traces held, waiting and in flight. */
  get count(): number {
    return this.#live.size;
  }

  /** JSON bytes of the traces held. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Memory the traces held keep alive: their bytes, and what of the slabs they share other
   * records no longer use. What `maxQueueBytes` bounds.
   */
  get memoryBytes(): number {
    return this.#bytes + this.#slabs.slackBytes;
  }

  /** Traces waiting for a batch. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** The trace at the front of the queue; `undefined` when none waits. */
  get oldestWaiting(): QueuedTrace | undefined {
    return this.#waiting.peek();
  }

  /** Whether the waiting traces fill a request of `maxTraces` traces or `maxBytes` bytes. */
  fillsBatch(maxTraces: number, maxBytes: number): boolean {
    return (
      this.#waiting.length >= maxTraces ||
      this.#waiting.bytes + this.#waiting.length + BODY_OVERHEAD_BYTES >= maxBytes
    );
  }

  /** Traces in batches being sent or waiting for a retry. */
  get inFlight(): number {
    return this.#live.size - this.#waiting.length;
  }

  /** Encodes a record's JSON (`bytes` in UTF-8) and holds it, at the back of the queue. */
  hold(traceId: string, json: string, bytes: number, sequence: number): QueuedTrace {
    const entry = createQueuedTrace(traceId, this.#slabs.encode(json, bytes), sequence);
    this.add(entry);
    return entry;
  }

  /** Holds a new trace, at the back of the queue. */
  add(entry: QueuedTrace): void {
    this.#live.add(entry);
    this.#bytes += entry.bytes;
    this.#waiting.push(entry);
  }

  /** Takes the next batch from the front, within the count and byte limits of one request. */
  takeBatch(maxTraces: number, maxBytes: number): QueuedTrace[] {
    return this.#waiting.takeBatch(maxTraces, maxBytes, BODY_OVERHEAD_BYTES);
  }

  /** Puts an unsent batch back at the front of the queue. */
  giveBack(entries: readonly QueuedTrace[]): void {
    this.#waiting.unshift(entries.filter((entry) => !entry.done));
  }

  /** Replaces a held trace's JSON (after shrinking it), keeping the byte count right. */
  resize(entry: QueuedTrace, json: string): void {
    const body = ownBody(json);
    this.#bytes += body.byteLength - entry.bytes;
    this.#release(entry);
    entry.body = body;
    entry.bytes = body.byteLength;
  }

  /** Settles the entries not settled yet and lets them go; returns how many it settled. */
  settle(entries: readonly QueuedTrace[], outcome: DeliveryOutcome | PromiseLike<DeliveryOutcome>): number {
    let count = 0;
    for (const entry of entries) {
      if (entry.done) continue;
      entry.done = true;
      this.#live.delete(entry);
      this.#bytes -= entry.bytes;
      this.#release(entry);
      entry.resolve(outcome);
      count += 1;
    }
    return count;
  }

  /** Gives back the entry's share of its slab, if it has one. */
  #release(entry: QueuedTrace): void {
    if (entry.slab === undefined) return;
    this.#slabs.release(entry.slab, entry.bytes);
    entry.slab = undefined;
  }

  /** The tickets of every trace held now. */
  tickets(): Promise<DeliveryOutcome>[] {
    return Array.from(this.#live, (entry) => entry.settled);
  }

  /** Drops everything held (at the shutdown deadline); returns how many traces that was. */
  dropAll(): number {
    return this.settle(this.takeAll(), 'dropped');
  }

  /** Every trace held, for the caller to settle (at the shutdown deadline). */
  takeAll(): QueuedTrace[] {
    this.#waiting.drain();
    return [...this.#live];
  }
}
