/**
 * A set that remembers only the last `capacity` ids added (a ring buffer over a Set): enough to
 * recognise late spans of recently completed traces, with memory that cannot grow.
 */
export class RecentIds {
  readonly #capacity: number;
  readonly #ring: Array<string | undefined>;
  readonly #set = new Set<string>();
  #next = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new TypeError(`Expected \`capacity\` to be an integer >= 1, got ${String(capacity)}`);
    }
    this.#capacity = capacity;
    this.#ring = new Array<string | undefined>(capacity);
  }

  /** Number of ids remembered (at most the capacity). */
  get size(): number {
    return this.#set.size;
  }

  has(id: string): boolean {
    return this.#set.has(id);
  }

  /** Remembers `id`, forgetting the oldest id when full. */
  add(id: string): void {
    if (this.#set.has(id)) return;
    const evicted = this.#ring[this.#next];
    if (evicted !== undefined) this.#set.delete(evicted);
    this.#ring[this.#next] = id;
    this.#set.add(id);
    this.#next = (this.#next + 1) % this.#capacity;
  }
}
