/**
 * Keeps the first `maxBytes` bytes written to a response, so a long stream costs at most the cap
 * in memory, and decodes them as UTF-8 without a broken character at the cut.
 */
export class ByteCollector {
  readonly #maxBytes: number;
  readonly #chunks: Uint8Array[] = [];
  #size = 0;
  #truncated = false;
  #touched = false;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Whether anything (even an empty chunk) was written. */
  get touched(): boolean {
    return this.#touched;
  }

  /** Whether bytes past the cap were dropped. */
  get truncated(): boolean {
    return this.#truncated;
  }

  /** Adds a chunk as `res.write`/`res.end` receive it: a string (with its encoding) or bytes. Other values are ignored. */
  add(chunk: unknown, encoding?: unknown): void {
    const bytes = toBytes(chunk, encoding);
    if (bytes === undefined) return;
    this.#touched = true;
    const room = this.#maxBytes - this.#size;
    if (bytes.byteLength > room) this.#truncated = true;
    if (room <= 0) return;
    const kept = bytes.byteLength > room ? bytes.subarray(0, room) : bytes;
    // A copy: the caller may reuse its buffer after write() returns.
    this.#chunks.push(Uint8Array.from(kept));
    this.#size += kept.byteLength;
  }

  /** The bytes kept, as text. A character cut in half by the cap is left out. */
  text(): string {
    return decodeUtf8(Buffer.concat(this.#chunks), this.#truncated);
  }
}

/** Decodes UTF-8; with `cut`, an incomplete character at the end is dropped rather than shown as U+FFFD. */
export function decodeUtf8(bytes: Uint8Array, cut: boolean): string {
  return new TextDecoder('utf-8').decode(bytes, { stream: cut });
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes, on a character boundary. */
export function truncateUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  // Each UTF-16 unit is at most 3 UTF-8 bytes, so short strings need no encoding.
  if (text.length * 3 <= maxBytes) return { text, truncated: false };
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.byteLength <= maxBytes) return { text, truncated: false };
  return { text: decodeUtf8(bytes.subarray(0, maxBytes), true), truncated: true };
}

function toBytes(chunk: unknown, encoding: unknown): Uint8Array | undefined {
  if (typeof chunk === 'string') {
    const enc = typeof encoding === 'string' && Buffer.isEncoding(encoding) ? encoding : 'utf8';
    return Buffer.from(chunk, enc);
  }
  if (chunk instanceof Uint8Array) return chunk;
  return undefined;
}
