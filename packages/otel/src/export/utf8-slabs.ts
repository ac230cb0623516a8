/** Bytes of one slab. */
export const SLAB_BYTES = 64 * 1024;
/** Records larger than this get memory of their own: a slab is for the many small ones. */
export const MAX_SHARED_BYTES = SLAB_BYTES / 4;

/** One slab: the UTF-8 bodies of several queued records, written one after the other. */
export interface Slab {
  readonly buffer: Buffer;
  /** Bytes written so far. */
  used: number;
  /** Records whose body is in it and not yet released. */
  live: number;
  /** Their bytes. */
  liveBytes: number;
  /** No longer written to: what its live records do not use is pinned memory (see `slackBytes`). */
  retired: boolean;
}

/** A record's body and the slab it shares, if any. */
export interface EncodedBody {
  body: Buffer;
  slab: Slab | undefined;
}

/**
 * Memory for the queue's UTF-8 record bodies. Allocating each record's own buffer cost more than
 * writing it (an ArrayBuffer and its external-memory accounting per trace); records are written
 * instead, one after the other, into 64 KiB slabs. A held record keeps its whole slab alive, so
 * what the slabs hold beyond the live records' own bytes is counted (`slackBytes`) and the queue
 * bounds it with them: `maxQueueBytes` stays a bound on the memory held, whatever order records
 * leave in. A slab is never written again once retired (a request or a disk write may still read
 * a released record's bytes), so the garbage collector frees it when the last view goes.
 */
export class Utf8Slabs {
  #current: Slab | undefined;
  #slack = 0;

  /** Bytes of retired slabs that their live records do not use, yet keep alive. */
  get slackBytes(): number {
    return this.#slack;
  }

  /** `json` (of `bytes` UTF-8 bytes) as a body: a share of a slab, or memory of its own when large. */
  encode(json: string, bytes: number): EncodedBody {
    if (bytes > MAX_SHARED_BYTES) return { body: ownBody(json, bytes), slab: undefined };
    let slab = this.#current;
    if (slab === undefined || slab.used + bytes > SLAB_BYTES) {
      if (slab !== undefined) this.#retire(slab);
      slab = { buffer: Buffer.allocUnsafeSlow(SLAB_BYTES), used: 0, live: 0, liveBytes: 0, retired: false };
      this.#current = slab;
    }
    const body = slab.buffer.subarray(slab.used, slab.used + bytes);
    body.write(json, 0, 'utf8');
    slab.used += bytes;
    slab.live += 1;
    slab.liveBytes += bytes;
    return { body, slab };
  }

  /** A record of `bytes` in `slab` left the queue. */
  release(slab: Slab, bytes: number): void {
    if (slab.retired) this.#slack -= SLAB_BYTES - slab.liveBytes;
    slab.live -= 1;
    slab.liveBytes -= bytes;
    // A retired slab with no live record is garbage: nothing of it is counted any more.
    if (slab.retired && slab.live > 0) this.#slack += SLAB_BYTES - slab.liveBytes;
  }

  #retire(slab: Slab): void {
    slab.retired = true;
    if (slab.live > 0) this.#slack += SLAB_BYTES - slab.liveBytes;
  }
}

/**
 * A record's JSON as UTF-8 in memory of its own. Not `Buffer.from()`: below 4 KiB that carves
 * the bytes out of Node's shared 8 KiB pool, which a record held through an outage would keep
 * alive uncounted.
 */
export function ownBody(json: string, bytes = Buffer.byteLength(json, 'utf8')): Buffer {
  const body = Buffer.allocUnsafeSlow(bytes);
  body.write(json, 0, 'utf8');
  return body;
}
