/**
 * A set of ids that remembers at most `capacity` of them, forgetting the oldest first, so a
 * follow that runs for days keeps a bounded memory.
 */
export class SeenIds {
  readonly #capacity: number;
  // A Set iterates in insertion order: its first entry is the oldest.
  readonly #ids = new Set<string>();

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a whole number >= 1');
    this.#capacity = capacity;
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  add(id: string): void {
    if (this.#ids.has(id)) return;
    this.#ids.add(id);
    if (this.#ids.size > this.#capacity) {
      const oldest = this.#ids.values().next().value as string;
      this.#ids.delete(oldest);
    }
  }

  get size(): number {
    return this.#ids.size;
  }
}
