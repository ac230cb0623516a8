import { utf8Body } from './queued-trace.js';

/** Bounds of a block's size: see {@link RecordSlabs.forQueueBytes}. */
const MIN_BLOCK_BYTES = 16 * 1024;
const MAX_BLOCK_BYTES = 256 * 1024;

/** The most UTF-8 bytes one UTF-16 code unit can take. */
const MAX_BYTES_PER_UNIT = 3;

/**
 * Memory for queued records: each record's UTF-8 is written into the free end of a block shared
 * with the records queued before it, and the record holds a view of its bytes. An allocation per
 * record (a backing store V8 must create, account for, sweep and free) measured 4.9-5.5 µs per
 * 5 KB record on the bench machine, of which a block's view costs 0.8-1.4.
 *
 * A block lives as long as any record in it. Records leave about in the order they came, so what
 * is held beyond their own bytes is the partly used blocks at the two ends of each run of held
 * records (the queue, each batch in flight): a few blocks, each at most 1/64 of `maxQueueBytes`.
 * A record of more characters than a quarter of a block's bytes, and a shrunk one, gets memory of
 * its exact size.
 */
export class RecordSlabs {
  readonly #blockBytes: number;
  #block: Buffer | undefined;
  #used = 0;

  /** Blocks of 1/64 of the queue's byte bound, between 16 and 256 KiB. */
  static forQueueBytes(maxQueueBytes: number): RecordSlabs {
    return new RecordSlabs(
      Math.min(MAX_BLOCK_BYTES, Math.max(MIN_BLOCK_BYTES, Math.floor(maxQueueBytes / 64))),
    );
  }

  constructor(blockBytes: number) {
    this.#blockBytes = blockBytes;
  }

  /**
   * The JSON as UTF-8, or `undefined` when that is longer than `room` bytes: then nothing is kept
   * (the next record is written over the bytes). A record is written before it is measured, so the
   * common case walks the string once.
   */
  encode(json: string, room: number): Buffer | undefined {
    if (json.length > this.#blockBytes / 4) {
      const bytes = Buffer.byteLength(json, 'utf8');
      return bytes > room ? undefined : utf8Body(json, bytes);
    }
    let block = this.#block;
    if (block === undefined || this.#blockBytes - this.#used < json.length * MAX_BYTES_PER_UNIT) {
      // Near a block's end only the exact length says whether the record still fits in it.
      const bytes = Buffer.byteLength(json, 'utf8');
      if (bytes > room) return undefined;
      if (block === undefined || this.#blockBytes - this.#used < bytes) {
        block = Buffer.allocUnsafeSlow(this.#blockBytes);
        this.#block = block;
        this.#used = 0;
      }
    }
    const start = this.#used;
    const written = block.write(json, start, 'utf8');
    if (written > room) return undefined;
    this.#used = start + written;
    return block.subarray(start, start + written);
  }
}
