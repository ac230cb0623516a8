import type { QueuedTrace } from './queued-trace.js';

/**
 * A FIFO of traces waiting for a batch. An array with a moving head, so taking a batch from the
 * front costs the batch's size rather than the queue's (a plain `shift()` moves every element).
 */
export class RecordQueue {
  #items: QueuedTrace[] = [];
  #head = 0;
  #bytes = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  /** JSON bytes of the entries waiting. */
  get bytes(): number {
    return this.#bytes;
  }

  push(entry: QueuedTrace): void {
    this.#items.push(entry);
    this.#bytes += entry.bytes;
  }

  /** Puts entries back at the front, in their order (a paused batch gives its traces back). */
  unshift(entries: readonly QueuedTrace[]): void {
    this.#items = [...entries, ...this.#items.slice(this.#head)];
    this.#head = 0;
    for (const entry of entries) this.#bytes += entry.bytes;
  }

  peek(): QueuedTrace | undefined {
    return this.#items[this.#head];
  }

  shift(): QueuedTrace | undefined {
    const entry = this.#items[this.#head];
    if (entry === undefined) return undefined;
    this.#items[this.#head] = undefined as unknown as QueuedTrace; // release for the GC
    this.#head += 1;
    this.#bytes -= entry.bytes;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return entry;
  }

  /**
   * Takes a batch from the front: at most `maxTraces` entries whose JSON, in a request body of
   * `overheadBytes`, stays within `maxBytes`. The first entry always goes, even alone over the
   * limit: the service then decides (413, and the entry is shrunk).
   */
  takeBatch(maxTraces: number, maxBytes: number, overheadBytes: number): QueuedTrace[] {
    const batch: QueuedTrace[] = [];
    let bytes = overheadBytes;
    for (let next = this.peek(); next !== undefined; next = this.peek()) {
      if (batch.length > 0 && (batch.length >= maxTraces || bytes + next.bytes + 1 > maxBytes)) break;
      batch.push(next);
      bytes += next.bytes + 1; // and a comma
      this.shift();
    }
    return batch;
  }

  /** Removes and returns every entry. */
  drain(): QueuedTrace[] {
    const all = this.#items.slice(this.#head);
    this.#items = [];
    this.#head = 0;
    this.#bytes = 0;
    return all;
  }
}
