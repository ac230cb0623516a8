/** Bodies larger than this are allocated for each request and never kept. */
const MAX_POOLED_BYTES = 2 * 1024 * 1024;
/** Smallest buffer kept: small bodies are cheap to allocate anyway. */
const MIN_POOLED_BYTES = 64 * 1024;
/** Buffers kept between requests; more are only needed with more requests in flight at once. */
const MAX_FREE_BUFFERS = 2;

/**
 * Request bodies of `evaluations.submitSerialized()`, reused from one request to the next. An
 * exporter's body of 100 traces is about 0.6 MB; a new buffer that size is memory the kernel has
 * to map and zero page by page, measured at 0.5-0.7 ms of the app's CPU per request on a 2-core VM,
 * a quarter of what the whole request costs it. A buffer comes back (`release`) only after the
 * service answered 2xx to the request that carried it, so the body has been read in full and
 * nothing is still writing from it; after any failure it is left to the GC. At most
 * `MAX_FREE_BUFFERS` buffers of at most `MAX_POOLED_BYTES` each are kept.
 */
export class BodyBuffers {
  readonly #free: ArrayBuffer[] = [];
  /** The buffers this pool made: only those may come back. Weak, so a dropped one is not held. */
  readonly #own = new WeakSet<ArrayBuffer>();

  /** A buffer of exactly `size` bytes, its content undefined: a kept one when one is large enough. */
  take(size: number): Buffer {
    if (size > MAX_POOLED_BYTES) return Buffer.allocUnsafeSlow(size);
    const index = this.#free.findIndex((buffer) => buffer.byteLength >= size);
    if (index !== -1) {
      const [kept] = this.#free.splice(index, 1) as [ArrayBuffer];
      return Buffer.from(kept, 0, size);
    }
    // Rounded up to a power of two, so the next, slightly larger body fits too.
    const capacity = Math.min(MAX_POOLED_BYTES, 2 ** Math.ceil(Math.log2(Math.max(size, MIN_POOLED_BYTES))));
    const made = new ArrayBuffer(capacity);
    this.#own.add(made);
    return Buffer.from(made, 0, size);
  }

  /** Gives back a body from `take()` once its request was answered 2xx. Anything else is ignored. */
  release(body: Buffer): void {
    const memory = body.buffer;
    if (!(memory instanceof ArrayBuffer) || !this.#own.has(memory) || this.#free.includes(memory)) return;
    if (this.#free.length < MAX_FREE_BUFFERS) this.#free.push(memory);
  }

  /** Buffers kept for the next requests. */
  get freeCount(): number {
    return this.#free.length;
  }
}
