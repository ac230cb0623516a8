/**
 * A set that remembers only the last `capacity` ids added (a ring buffer over a Map): enough to
 * recognise late spans of recently completed traces, with memory that cannot grow.
 */
export class RecentIds {
  readonly #capacity: number;
  readonly #ring: Array<string | undefined>;
  /** Each remembered id and its slot in the ring, so that one can be forgotten in O(1). */
  readonly #slots = new Map<string, number>();
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
    return this.#slots.size;
  }

  has(id: string): boolean {
    return this.#slots.has(id);
  }

  /** Remembers `id`, forgetting the oldest id when full. */
  add(id: string): void {
    if (this.#slots.has(id)) return;
    const evicted = this.#ring[this.#next];
    if (evicted !== undefined) this.#slots.delete(evicted);
    this.#ring[this.#next] = id;
    this.#slots.set(id, this.#next);
    this.#next = (this.#next + 1) % this.#capacity;
  }

  /** Forgets `id` (its slot stays empty until the ring comes round to it). */
  delete(id: string): void {
    const slot = this.#slots.get(id);
    if (slot === undefined) return;
    this.#slots.delete(id);
    this.#ring[slot] = undefined;
  }
}
