import { linePrefix, parseSpillFileName, spillFileName, spillHeader } from './spill-file.js';
import type { SpillFolder } from './spill-folder.js';
import type { SpillLedger } from './spill-ledger.js';

/** What the writer reports to the spill unit. */
export interface WriterEvents {
  /** A write failed: the disk refuses (full, read-only, no permission). */
  refused(error: unknown): void;
  /** A write succeeded. */
  wrote(traces: number, file?: string, bytes?: number): void;
  /** Pool files deleted to stay within `maxDiskBytes`, or a batch that could not fit. */
  evicted(traces: number, message: string): void;
}

/** A file's size (one request's worth), how long a partial file waits to fill, and the folder's bound. */
export interface WriterLimits {
  maxTraces: number;
  maxBytes: number;
  /** Longest a partial file waits for more records (`batchDelayMs`); 0: the end of the event-loop turn. */
  lingerMs: number;
  maxDiskBytes: number;
}

/** A record for the disk: its JSON as bytes, or as the string it was serialised to (and its UTF-8 length). */
export type SpillInput = { traceId: string; body: Buffer } | { traceId: string; json: string; bytes: number };

/**
 * The records of one future file, copied as their lines into one chunk of memory: no allocation
 * per record, so a long outage does not churn through a Buffer per trace (external memory that
 * only an old-generation collection gives back).
 */
interface Group {
  chunk: Buffer;
  length: number;
  count: number;
  done: Promise<boolean>;
  resolve: (ok: boolean) => void;
}

/** Chunks kept for reuse once written. */
const SPARE_CHUNKS = 2;
/** Files written at once: a slow fsync must not hold the others (they are renamed in any order). */
const WRITES_AT_ONCE = 4;

/**
 * Writes records to the folder, one file per batch: records handed over within `lingerMs` are
 * grouped (up to a request's size) and written at most WRITES_AT_ONCE at a time, so a burst costs few
 * files and the disk is never hit by many writes at once. Before each write the oldest pool files
 * are deleted while the folder would pass `maxDiskBytes`.
 */
export class SpillWriter {
  readonly #folder: SpillFolder;
  readonly #ledger: SpillLedger;
  readonly #events: WriterEvents;
  readonly #limits: WriterLimits;
  #open: Group | undefined;
  /** Writes wait for this (the folder being opened at start-up). */
  #ready: Promise<void> = Promise.resolve();
  readonly #sealed: Group[] = [];
  #writing = 0;
  /** Bytes of files being written, not yet in the ledger: counted against `maxDiskBytes`. */
  #reserved = 0;
  readonly #idle: Array<() => void> = [];
  #sequence = 0;
  readonly #spare: Buffer[] = [];
  /** Bytes handed over and not yet on disk. */
  buffered = 0;

  constructor(folder: SpillFolder, ledger: SpillLedger, events: WriterEvents, limits: WriterLimits) {
    this.#folder = folder;
    this.#ledger = ledger;
    this.#events = events;
    this.#limits = limits;
  }

  /** Queues records for the disk; resolves true once they are in a file renamed into place. */
  write(records: readonly SpillInput[]): Promise<boolean> {
    const results: Promise<boolean>[] = [];
    for (const record of records) {
      const prefix = linePrefix(record.traceId);
      const bodyBytes = 'body' in record ? record.body.length : record.bytes;
      const bytes = prefix.length + bodyBytes + 1;
      let group = this.#open;
      if (
        group !== undefined &&
        (group.count >= this.#limits.maxTraces || group.length + bytes > group.chunk.length)
      ) {
        this.#seal();
        group = undefined;
      }
      group ??= this.#startGroup(bytes);
      let at = group.length + group.chunk.write(prefix, group.length, 'latin1');
      at += 'body' in record ? record.body.copy(group.chunk, at) : group.chunk.write(record.json, at, 'utf8');
      group.chunk[at] = 0x0a;
      group.length = at + 1;
      group.count += 1;
      this.buffered += bytes;
      if (results.at(-1) !== group.done) results.push(group.done);
    }
    return results.length === 1
      ? (results[0] as Promise<boolean>)
      : Promise.all(results).then((all) => all.every(Boolean));
  }

  /** Holds every write until `ready` settles (the folder being opened at start-up). */
  waitFor(ready: Promise<void>): void {
    this.#ready = ready;
  }

  /** Resolves once everything handed over so far was written (or refused). */
  async drain(): Promise<void> {
    this.#seal();
    while (this.#writing > 0 || this.#sealed.length > 0) {
      await new Promise<void>((resolve) => this.#idle.push(resolve));
    }
  }

  #startGroup(firstBytes: number): Group {
    let resolve!: (ok: boolean) => void;
    const done = new Promise<boolean>((r) => {
      resolve = r;
    });
    const size = Math.max(this.#limits.maxBytes, firstBytes);
    const chunk =
      size === this.#limits.maxBytes && this.#spare.length > 0
        ? (this.#spare.pop() as Buffer)
        : Buffer.allocUnsafeSlow(size);
    const group: Group = { chunk, length: 0, count: 0, done, resolve };
    this.#open = group;
    // Records handed over meanwhile share one file: fewer files, fewer fsyncs, during an outage.
    const seal = () => {
      if (this.#open === group) this.#seal();
    };
    if (this.#limits.lingerMs > 0) setTimeout(seal, this.#limits.lingerMs).unref();
    else setImmediate(seal);
    return group;
  }

  #seal(): void {
    const group = this.#open;
    if (group === undefined) return;
    this.#open = undefined;
    this.#sealed.push(group);
    this.#startWrites();
  }

  /** Starts sealed files' writes, at most WRITES_AT_ONCE at a time (an fsync can take a while). */
  #startWrites(): void {
    while (this.#writing < WRITES_AT_ONCE && this.#sealed.length > 0) {
      const group = this.#sealed.shift() as Group;
      this.#writing += 1;
      void this.#write(group);
    }
  }

  async #write(group: Group): Promise<void> {
    let ok = false;
    try {
      await this.#ready;
      ok = await this.#writeGroup(group);
    } catch (error) {
      this.#events.refused(error);
    }
    this.buffered -= group.length;
    if (group.chunk.length === this.#limits.maxBytes && this.#spare.length < SPARE_CHUNKS) {
      this.#spare.push(group.chunk);
    }
    this.#writing -= 1;
    group.resolve(ok);
    this.#startWrites();
    if (this.#writing === 0 && this.#sealed.length === 0) for (const wake of this.#idle.splice(0)) wake();
  }

  async #writeGroup(group: Group): Promise<boolean> {
    const payload = group.chunk.subarray(0, group.length);
    const header = spillHeader(group.count, payload);
    const size = header.length + payload.length;
    if (!(await this.#makeRoom(size, group.count))) return false;
    this.#sequence += 1;
    const name = spillFileName(Date.now(), this.#folder.id, this.#sequence, group.count, size);
    try {
      await this.#folder.writeAtomic(name, [header, payload]);
    } finally {
      this.#reserved -= size;
    }
    this.#ledger.addToPool(parseSpillFileName(name) as NonNullable<ReturnType<typeof parseSpillFileName>>);
    this.#events.wrote(group.count, name, size);
    return true;
  }

  /** Deletes the oldest pool files until `bytes` more fit; false (batch evicted) when they cannot. */
  async #makeRoom(bytes: number, traces: number): Promise<boolean> {
    const { maxDiskBytes } = this.#limits;
    if (bytes > maxDiskBytes) {
      this.#events.evicted(traces, `a batch of ${bytes} bytes is larger than maxDiskBytes (${maxDiskBytes})`);
      return false;
    }
    while (this.#ledger.bytes + this.#reserved + bytes > maxDiskBytes) {
      const oldest = this.#ledger.oldest();
      if (oldest === undefined) {
        this.#events.evicted(
          traces,
          `the folder is full (maxDiskBytes ${maxDiskBytes}) with files other processes are sending`,
        );
        return false;
      }
      this.#ledger.removeFromPool(oldest);
      if (await this.#folder.removeFromPool(oldest.name)) {
        this.#events.evicted(
          oldest.traces,
          `maxDiskBytes (${maxDiskBytes}) reached: the oldest file (${oldest.traces} traces) was deleted`,
        );
      }
    }
    this.#reserved += bytes; // in the same turn as the check: parallel writes cannot both take the room
    return true;
  }
}
