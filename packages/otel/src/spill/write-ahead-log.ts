import { promises as fs, fsync, lstatSync, mkdirSync, write } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { linePrefix, parseSpillFileName, type SpillFileName, spillFileName } from './spill-file.js';
import { syncFolder } from './spill-paths.js';
import { LOG_HEADER_BYTES, LogSegment, sealedHeader } from './write-ahead-segment.js';

const writeAt = promisify(write);
/** A held file emptied past this size is replaced by a new one rather than truncated. */
const RECYCLE_BYTES = 256 * 1024;
const fsyncFd = promisify(fsync);

/** What the log needs of the spill folder it writes into. */
export interface WriteAheadHost {
  /** The pool folder (`persistDir`). */
  dir: string;
  /** This process's claim folder, where its log files live until delivered or sealed. */
  ownerDir: string;
  /** This process's id in the folder (`SpillFolder.id`). */
  ownerId: string;
  /** Bytes of the spill files in the folder (the ledger): with the log's own, bounded by `maxDiskBytes`. */
  poolBytes(): number;
  /** A sealed file of records memory could not keep is now in the pool. */
  addedToPool(file: SpillFileName): void;
  /** The disk refused a write: the log is off until `retryMs` passed (the caller says so). */
  refused(error: unknown): void;
}

/** Sizes of the log: files of kept records seal at a request's worth, or after `lingerMs`. */
export interface WriteAheadLimits {
  maxDiskBytes: number;
  maxBatchTraces: number;
  maxBatchBytes: number;
  lingerMs: number;
  /** A file of records held in memory is replaced by a new one past this size. */
  segmentBytes: number;
  /** How long the log stays off after the disk refused a write. */
  retryMs: number;
}

/** What `logOverflow` did with a record memory cannot hold. */
export type OverflowLogged = 'logged' | 'full' | 'off';

/**
 * The write-ahead log of `persistMode: 'write-ahead'`. Every trace the sender accepts is first
 * appended to a log file with one synchronous `write`, so once `enqueue()` returns it survives a
 * kill -9 or an OOM kill (the page cache outlives the process; only a power cut needs `fsync`).
 *
 * Two kinds of files. Records memory holds too (`logHeld`) go to the current held file and leave
 * it as they settle: once all of its records settled the file is emptied (truncated to its header,
 * one system call) or, if it was replaced meanwhile, deleted. Records memory cannot hold
 * (`logOverflow`) go to the current kept file, which is sealed (header written, fsync, renamed into
 * the pool) at a request's worth or after `lingerMs`, and then replayed like any spill file: the
 * disk, not memory, holds them, up to `maxDiskBytes`.
 */
export class WriteAheadLog {
  readonly #host: WriteAheadHost;
  readonly #limits: WriteAheadLimits;
  #held: LogSegment | undefined;
  #kept: LogSegment | undefined;
  #keptTimer: NodeJS.Timeout | undefined;
  readonly #draining = new Set<LogSegment>();
  readonly #sealing = new Set<Promise<void>>();
  readonly #removing = new Set<Promise<void>>();
  #sequence = 0;
  #scratch = Buffer.allocUnsafeSlow(64 * 1024);
  #downUntil = 0;
  #closed = false;
  #folderChecked = false;
  /** Bytes of the log files not yet sealed or deleted. */
  #bytes = 0;
  /** Records appended, in total. */
  loggedTraces = 0;

  constructor(host: WriteAheadHost, limits: WriteAheadLimits) {
    this.#host = host;
    this.#limits = limits;
  }

  /** Bytes the log's files hold now (counted against `maxDiskBytes` with the pool's). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Whether the log takes writes now. */
  get writable(): boolean {
    return !this.#closed && performance.now() >= this.#downUntil;
  }

  /** Whether a record of `bytes` memory cannot hold would fit on disk now. */
  canKeep(bytes: number): boolean {
    return this.writable && this.#fits(bytes);
  }

  /**
   * Appends a record memory holds; returns what to call once it settled, or `undefined` when the
   * log is off (the disk refused a write): the trace is then held in memory only.
   */
  logHeld(traceId: string, body: Buffer): (() => void) | undefined {
    if (!this.writable) return undefined;
    const length = this.#encode(traceId, body, undefined, body.length);
    try {
      let segment = this.#held;
      if (segment === undefined || segment.size + length > this.#limits.segmentBytes) {
        if (segment !== undefined) this.#retire(segment);
        segment = this.#open();
        this.#held = segment;
      }
      segment.append(this.#scratch, length, 1, false);
      segment.live += 1;
      this.#bytes += length;
      this.loggedTraces += 1;
      return () => this.#settled(segment);
    } catch (error) {
      this.#refused(error);
      return undefined;
    }
  }

  /**
   * Appends a record memory cannot hold: on `'logged'` it is on disk only, and reaches the pool
   * when its file is sealed. `'full'`: `maxDiskBytes` would be passed; `'off'`: the disk refused.
   */
  logOverflow(traceId: string, json: string, bytes: number): OverflowLogged {
    if (!this.writable) return 'off';
    const length = this.#encode(traceId, undefined, json, bytes);
    if (!this.#fits(length)) return 'full';
    try {
      let segment = this.#kept;
      if (segment === undefined) {
        segment = this.#open();
        this.#kept = segment;
        this.#keptTimer = setTimeout(() => this.#sealKept(), this.#limits.lingerMs);
        this.#keptTimer.unref();
      }
      segment.append(this.#scratch, length, 1);
      this.#bytes += length;
      this.loggedTraces += 1;
      const { maxBatchTraces, maxBatchBytes } = this.#limits;
      if (segment.records >= maxBatchTraces || segment.size >= maxBatchBytes) this.#sealKept();
      return 'logged';
    } catch (error) {
      this.#refused(error);
      return 'off';
    }
  }

  /**
   * At shutdown, after the sender settled every trace: seals the kept file, deletes the emptied
   * ones. A held file with records still unsettled (the disk hung) stays for the next process.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#sealKept();
    await Promise.allSettled([...this.#sealing, ...this.#removing]);
    for (const segment of [this.#held, ...this.#draining]) {
      if (segment === undefined) continue;
      segment.close();
      if (segment.live === 0) await fs.rm(segment.path, { force: true }).catch(() => {});
    }
    this.#held = undefined;
    this.#draining.clear();
  }

  #fits(bytes: number): boolean {
    return this.#host.poolBytes() + this.#bytes + bytes <= this.#limits.maxDiskBytes;
  }

  /** Writes the record's line into the scratch buffer; returns its length. */
  #encode(traceId: string, body: Buffer | undefined, json: string | undefined, bytes: number): number {
    const prefix = linePrefix(traceId);
    const length = Buffer.byteLength(prefix, 'utf8') + bytes + 1;
    if (this.#scratch.length < length)
      this.#scratch = Buffer.allocUnsafeSlow(Math.max(length, 2 * this.#scratch.length));
    let at = this.#scratch.write(prefix, 0, 'utf8');
    at += body === undefined ? this.#scratch.write(json as string, at, 'utf8') : body.copy(this.#scratch, at);
    this.#scratch[at] = 0x0a;
    return at + 1;
  }

  #open(): LogSegment {
    if (!this.#folderChecked) {
      // The claim folder may not exist yet (the spill folder opens in the background): made here,
      // synchronously, as the async opening would (owner-only); a link in its place is refused.
      const owners = dirname(this.#host.ownerDir);
      mkdirSync(owners, { recursive: true, mode: 0o700 });
      // Never through a link: the folder's own checks refuse such a folder, a moment later.
      if (!lstatSync(owners).isDirectory()) throw new Error(`${owners} is not a folder of its own`);
      mkdirSync(this.#host.ownerDir, { recursive: true, mode: 0o700 });
      if (!lstatSync(this.#host.ownerDir).isDirectory())
        throw new Error(`${this.#host.ownerDir} is not a folder of its own`);
      this.#folderChecked = true;
    }
    this.#sequence += 1;
    const segment = new LogSegment(this.#host.ownerDir, this.#host.ownerId, this.#sequence);
    this.#bytes += LOG_HEADER_BYTES;
    return segment;
  }

  /** A held record settled: its file is emptied, or deleted once replaced, when none is left. */
  #settled(segment: LogSegment): void {
    segment.live -= 1;
    if (segment.live > 0) return;
    if (segment === this.#held && !this.#closed) {
      if (segment.size > RECYCLE_BYTES) {
        // A new file for the next records, this one deleted off the event loop: truncating a file
        // whose pages the kernel is writing back waits for that write (measured: milliseconds on
        // a busy disk), and so would the next write into those pages.
        this.#held = undefined;
        this.#remove(segment);
        return;
      }
      this.#bytes -= segment.size - LOG_HEADER_BYTES;
      try {
        segment.truncate();
      } catch (error) {
        this.#refused(error);
      }
    } else if (this.#draining.delete(segment)) {
      this.#remove(segment);
    }
  }

  /** A held file replaced by a new one: deleted once its last record settles. */
  #retire(segment: LogSegment): void {
    segment.close();
    if (segment.live === 0) this.#remove(segment);
    else this.#draining.add(segment);
  }

  #remove(segment: LogSegment): void {
    segment.close();
    this.#bytes -= segment.size;
    // In libuv's pool: the last unlink of a file drops its pages, which may wait for their write-back.
    const removing = fs
      .unlink(segment.path)
      .catch(() => {}) // gone already: nothing to deliver from it
      .finally(() => this.#removing.delete(removing));
    this.#removing.add(removing);
  }

  /** Seals the kept file: header, fsync, rename into the pool as a spill file, for the replay. */
  #sealKept(): void {
    const segment = this.#kept;
    if (segment === undefined) return;
    this.#kept = undefined;
    clearTimeout(this.#keptTimer);
    const sealing = this.#seal(segment).finally(() => this.#sealing.delete(sealing));
    this.#sealing.add(sealing);
  }

  async #seal(segment: LogSegment): Promise<void> {
    const payload = segment.size - LOG_HEADER_BYTES;
    const name = spillFileName(
      segment.firstAt,
      `${this.#host.ownerId}w`,
      segment.sequence,
      segment.records,
      segment.size,
    );
    try {
      const fd = segment.fd as number;
      const header = sealedHeader(segment.records, payload, segment.crc);
      await writeAt(fd, header, 0, header.length, 0);
      await fsyncFd(fd);
      segment.close();
      await fs.rename(segment.path, join(this.#host.dir, name));
      await syncFolder(this.#host.dir);
    } catch (error) {
      // Still in the claim folder: the next process that takes the folder over sends it.
      segment.close();
      this.#refused(error);
      return;
    }
    this.#bytes -= segment.size;
    this.#host.addedToPool(parseSpillFileName(name) as SpillFileName);
  }

  #refused(error: unknown): void {
    this.#downUntil = performance.now() + this.#limits.retryMs;
    this.#host.refused(error);
  }
}
