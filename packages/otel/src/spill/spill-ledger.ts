import type { SpillFileName } from './spill-file.js';

/** What is on disk, as `stats().disk` shows it. */
export interface DiskStats {
  /** Whether the folder takes writes now (false after a refused write, until the next try). */
  writable: boolean;
  /** Spill files in the folder (waiting, being sent by this or another process). */
  files: number;
  /** Traces in those files. */
  traces: number;
  /** Bytes of those files. */
  bytes: number;
  /** Age of the oldest file, in ms; 0 when there is none. */
  oldestAgeMs: number;
  /** Traces this process wrote to disk. */
  spilledTraces: number;
  /** Traces this process read back from disk and the service accepted. */
  replayedTraces: number;
  /** Files this process moved to `corrupt/` because they could not be read. */
  corruptFiles: number;
  /** Traces this process wrote to its write-ahead log (`persistMode: 'write-ahead'`; else 0). */
  loggedTraces: number;
}

/**
 * This process's view of a spill folder: the files waiting in the pool (oldest first), the ones
 * it claimed, and what other processes hold (as of the last scan). From file names only: the
 * size and trace count are in each name. Bounded by the folder (`maxDiskBytes`).
 */
export class SpillLedger {
  #pool: SpillFileName[] = [];
  readonly #claimed = new Map<string, SpillFileName>();
  #others = { files: 0, traces: 0, bytes: 0, oldestAt: Number.POSITIVE_INFINITY };

  /** Replaces the view of the pool and of other processes' files with a fresh scan. */
  replace(pool: SpillFileName[], others: SpillFileName[]): void {
    this.#pool = pool.filter((file) => !this.#claimed.has(file.name));
    const totals = { files: 0, traces: 0, bytes: 0, oldestAt: Number.POSITIVE_INFINITY };
    for (const file of others) {
      totals.files += 1;
      totals.traces += file.traces;
      totals.bytes += file.bytes;
      totals.oldestAt = Math.min(totals.oldestAt, file.writtenAt);
    }
    this.#others = totals;
  }

  /** A file just written (or returned) to the pool. */
  addToPool(file: SpillFileName): void {
    const last = this.#pool.at(-1);
    this.#pool.push(file);
    if (last !== undefined && last.name > file.name) this.#pool.sort(byName);
  }

  /** The oldest file waiting that `skip` does not rule out, without taking it. */
  oldest(skip?: (file: SpillFileName) => boolean): SpillFileName | undefined {
    if (skip === undefined) return this.#pool[0];
    return this.#pool.find((file) => !skip(file));
  }

  /** Forgets a pool file (claimed, evicted, or found gone). */
  removeFromPool(file: SpillFileName): void {
    const index = this.#pool.indexOf(file);
    if (index >= 0) this.#pool.splice(index, 1);
  }

  claimed(file: SpillFileName): void {
    this.#claimed.set(file.name, file);
  }

  unclaimed(file: SpillFileName): void {
    this.#claimed.delete(file.name);
  }

  /** Files waiting in the pool or being sent by this process: 0 once a replay has emptied the disk. */
  get waiting(): number {
    return this.#pool.length + this.#claimed.size;
  }

  /** Bytes of every spill file known: what `maxDiskBytes` bounds. */
  get bytes(): number {
    let bytes = this.#others.bytes;
    for (const file of this.#pool) bytes += file.bytes;
    for (const file of this.#claimed.values()) bytes += file.bytes;
    return bytes;
  }

  totals(now: number): Pick<DiskStats, 'files' | 'traces' | 'bytes' | 'oldestAgeMs'> {
    let { files, traces, bytes, oldestAt } = this.#others;
    for (const file of [...this.#pool, ...this.#claimed.values()]) {
      files += 1;
      traces += file.traces;
      bytes += file.bytes;
      oldestAt = Math.min(oldestAt, file.writtenAt);
    }
    return { files, traces, bytes, oldestAgeMs: files === 0 ? 0 : Math.max(0, now - oldestAt) };
  }
}

function byName(a: SpillFileName, b: SpillFileName): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
