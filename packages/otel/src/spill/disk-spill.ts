import type { PipelineDebug } from '../debug/pipeline-debug.js';
import type { OverflowStore } from '../export/sender-types.js';
import { WHY_ON_DISK } from '../export/to-disk.js';
import type { DiskSpillOptions } from './disk-spill-options.js';
import { type CloseStep, closeWithin } from './spill-close.js';
import { filesOfOthers, SpillFolder } from './spill-folder.js';
import { type DiskStats, SpillLedger } from './spill-ledger.js';
import { HEARTBEAT_MS } from './spill-owners.js';
import { SpillFolderRefused } from './spill-paths.js';
import { type ReplayTarget, SpillReplay } from './spill-replay.js';
import { SpillReports } from './spill-reports.js';
import { type SpillInput, SpillWriter } from './spill-writer.js';
import type { WriteAheadLog } from './write-ahead-log.js';
import { claimGoneLogs } from './write-ahead-recovery.js';
import { createWriteAheadLog, takeOverClaimedLogs } from './write-ahead-setup.js';

/** How long the pipeline stays in memory only after the disk refused a write. */
const DISK_RETRY_MS = 30_000;
/** Longest `close()` waits for the disk when not told (`shutdownTimeoutMs` is passed in the pipeline). */
const CLOSE_TIMEOUT_MS = 10_000;
const MIB = 1024 * 1024;

export type { DiskSpillOptions, ReplayTarget };

/**
 * The disk behind the sender's memory queue (`persistDir`). It takes what memory cannot keep
 * (`write`), and, in the background, feeds files back to the sender oldest first whenever the
 * sender has room and the service is answering (`poke`). A file leaves the disk only once every
 * record in it was accepted or isolated as poisoned by a 400; otherwise it goes back to the pool.
 * Nothing here throws into the app or makes it wait: start-up scans the folder asynchronously,
 * and a disk that refuses writes turns the pipeline to memory only (said once) until a later try;
 * a folder whose parts are links or files turns it to memory only for good (said once).
 */
export class DiskSpill implements OverflowStore {
  readonly #folder: SpillFolder;
  readonly #ledger = new SpillLedger();
  readonly #writer: SpillWriter;
  readonly #reports: SpillReports;
  readonly #replay: SpillReplay;
  readonly #bufferLimit: number;
  readonly #retryMs: number;
  readonly #debug: PipelineDebug | undefined;
  readonly #dir: string;
  #target: ReplayTarget | undefined;
  #opened = false;
  /** Whether this process has a claim folder to give back at close. */
  #everOpened = false;
  #downUntil = 0;
  /** The folder was refused (a part is a link or a file): memory only for this process's life. */
  #disabled = false;
  #closing = false;
  #timer: NodeJS.Timeout | undefined;
  #opening: Promise<void> | undefined;
  /** The opening or heartbeat running: one at a time, and close() waits for it. */
  #ticking: Promise<void> | undefined;
  /** What sent the latest records to disk, for the line that says a spell of writing began. */
  #why: string | undefined;
  #corrupt = 0;
  readonly #log: WriteAheadLog | undefined;
  readonly #maxDiskBytes: number;
  #sendingLogs = false;
  /** Traces deleted from disk at `maxDiskBytes` (the `disk-full` drop reason). */
  evictedTraces = 0;

  constructor(options: DiskSpillOptions) {
    this.#folder = new SpillFolder(options.dir);
    this.#reports = new SpillReports(options.logger, options.dir);
    this.#retryMs = options.retryMs ?? DISK_RETRY_MS;
    this.#debug = options.debug;
    this.#dir = options.dir;
    this.#maxDiskBytes = options.maxDiskBytes;
    this.#replay = new SpillReplay({
      folder: this.#folder,
      ledger: this.#ledger,
      reports: this.#reports,
      debug: this.#debug,
      dir: this.#dir,
      isClosing: () => this.#closing,
      quarantine: (path, name, problem) => this.#quarantine(path, name, problem),
      poke: () => this.poke(),
    });
    // Records waiting for their write: bounded, so a disk slower than the app cannot grow memory.
    this.#bufferLimit = Math.max(8 * MIB, 4 * options.maxBatchBytes);
    this.#writer = new SpillWriter(
      this.#folder,
      this.#ledger,
      {
        refused: (error) => this.#refused(error),
        wrote: (traces, file, bytes) => {
          this.#debug?.wroteToDisk(this.#dir, traces, file, bytes);
          this.#reports.wrote(traces, this.#why);
        },
        evicted: (traces, message) => {
          this.evictedTraces += traces;
          this.#debug?.dropped('disk-full', traces, `deleted from persistDir: ${message}`);
          this.#reports.evicted(traces, message);
        },
      },
      {
        maxTraces: options.maxBatchTraces,
        maxBytes: options.maxBatchBytes,
        lingerMs: options.batchDelayMs,
        maxDiskBytes: options.maxDiskBytes,
      },
    );
    this.#log =
      options.writeAhead === true
        ? createWriteAheadLog({
            dir: options.dir,
            folder: this.#folder,
            poolBytes: () => this.#ledger.bytes,
            addedToPool: (file) => {
              this.#ledger.addToPool(file);
              this.#reports.wrote(file.traces, WHY_ON_DISK['queue-full']);
              this.#debug?.wroteToDisk(this.#dir, file.traces, file.name, file.bytes);
              this.poke();
            },
            refused: (error) => this.#refused(error),
            limits: { ...options, retryMs: this.#retryMs },
          })
        : undefined;
  }

  /** The write-ahead log (`persistMode: 'write-ahead'`); `undefined` in overflow mode. */
  get writeAhead(): WriteAheadLog | undefined {
    return this.#disabled ? undefined : this.#log;
  }

  /** Connects the sender and starts in the background: opening the folder, taking over, replaying. */
  attach(target: ReplayTarget): void {
    this.#target = target;
    this.#timer = setInterval(() => void this.#tick(), HEARTBEAT_MS);
    this.#timer.unref();
    this.#openInBackground();
  }

  /** Writes wait for the folder to be opened; a trace that overflows meanwhile is not turned away. */
  #openInBackground(): void {
    this.#opening = this.#tick().finally(() => {
      this.#opening = undefined;
    });
    this.#writer.waitFor(this.#opening);
  }

  /** Whether the disk takes writes now (presumed until the folder has refused one). */
  get writable(): boolean {
    return !this.#closing && !this.#disabled && performance.now() >= this.#downUntil;
  }

  /** Whether `bytes` of new records may wait for the disk without passing the write buffer's bound. */
  canBuffer(bytes: number): boolean {
    return this.writable && this.#writer.buffered + bytes <= this.#bufferLimit;
  }

  /**
   * Writes records; resolves true once they are on disk, false when the disk refused them. `why`
   * (a fixed phrase) says what sends them to disk, in the line that says a spell of writing began.
   */
  write(records: readonly SpillInput[], why?: string): Promise<boolean> {
    if (this.#disabled) return Promise.resolve(false);
    this.#why = why;
    // The folder could not be opened before: the next write waits for another try, not the timer's.
    if (!this.#opened && this.#opening === undefined) this.#openInBackground();
    return this.#writer.write(records);
  }

  /** The sender has room again, or the service answered: send files from disk if there are any. */
  poke(): void {
    // A file just finished (or the sender has room): the end of a spell of writing is said even
    // during close(), when the last file of a replay finishes.
    if (this.#everOpened && this.#ledger.waiting === 0 && this.#writer.buffered === 0)
      this.#reports.emptied();
    if (this.#target === undefined || !this.#opened || this.#closing) return;
    this.#replay.start(this.#target);
  }

  /** What the disk holds and what was written to it and read back. */
  stats(): DiskStats {
    return {
      writable: this.writable,
      ...this.#ledger.totals(Date.now()),
      spilledTraces: this.#reports.writtenTraces,
      replayedTraces: this.#reports.deliveredTraces,
      corruptFiles: this.#corrupt,
      loggedTraces: this.#log?.loggedTraces ?? 0,
    };
  }

  /**
   * After the sender shut down: finishes the writes, returns the files this process claimed to
   * the folder and removes its claim folder. Never rejects, and resolves within `timeoutMs` even
   * when the disk hangs, saying (once, on stderr without logging set up) what it gave up.
   */
  async close(timeoutMs = CLOSE_TIMEOUT_MS): Promise<void> {
    this.#closing = true;
    clearInterval(this.#timer);
    const steps: CloseStep[] = [
      // An opening or heartbeat still running would make (or make again) the claim folder after
      // the folder was released: a shutdown that resolved must leave nothing behind.
      ['the opening of the folder', async () => this.#ticking],
      ['the write-ahead log', async () => this.#log?.close()],
      ['the writes of records to disk', () => this.#writer.drain()],
      ['a file being read back', async () => this.#replay.running],
      ['the files being sent', () => this.#replay.finishing()],
      [
        'returning its claimed files to the folder',
        async () => {
          if (!this.#everOpened) return;
          await this.#folder.close().catch((error: unknown) => {
            this.#reports.logger.warn(`Could not release the claimed files in persistDir: ${String(error)}`);
          });
        },
      ],
    ];
    const unfinished = await closeWithin(steps, timeoutMs);
    if (unfinished !== undefined) this.#reports.gaveUp(timeoutMs, unfinished);
  }

  #tick(): Promise<void> {
    this.#ticking ??= this.#tickOnce().finally(() => {
      this.#ticking = undefined;
    });
    return this.#ticking;
  }

  async #tickOnce(): Promise<void> {
    if (this.#closing || this.#disabled) return;
    try {
      if (!this.#opened) {
        if (performance.now() < this.#downUntil) return;
        await this.#folder.open();
        this.#opened = true;
        this.#everOpened = true;
        this.#reports.recovered();
      } else {
        await this.#folder.heartbeat();
      }
      await this.#scan();
    } catch (error) {
      if (error instanceof SpillFolderRefused) this.#disable(error);
      else this.#refused(error);
      return;
    }
    this.#sendLogs();
    this.poke();
  }

  /**
   * Writes the claimed logs of gone processes to the pool, in the background: the writer waits
   * for the opening of the folder, which this scan is part of.
   */
  #sendLogs(): void {
    if (this.#sendingLogs) return;
    this.#sendingLogs = true;
    void takeOverClaimedLogs(
      this.#folder,
      (records) => this.#writer.write(records),
      this.#maxDiskBytes,
      this.#reports.logger,
    )
      .then((any) => {
        if (any) this.poke();
      })
      .catch((error: unknown) => this.#refused(error))
      .finally(() => {
        this.#sendingLogs = false;
      });
  }

  /** Takes over the files of processes that are gone and refreshes the view of the folder. */
  async #scan(): Promise<void> {
    const now = Date.now();
    this.#replay.unparkExpired(now);
    // Logs of processes that are gone, before their claim folders are removed (which keeps logs).
    await claimGoneLogs(this.#folder, now);
    const returned = await this.#folder.takeOverGone(Date.now());
    if (returned > 0) {
      this.#reports.logger.info(
        `Took over ${returned} spill file(s) left in persistDir by a process that is gone`,
      );
    }
    const listing = await this.#folder.listPool();
    for (const name of listing.unknown) {
      await this.#quarantine(this.#folder.poolPath(name), name, 'not a spill file name this version knows');
    }
    this.#ledger.replace(listing.files, await filesOfOthers(this.#folder));
  }

  async #quarantine(path: string, name: string, problem: string): Promise<void> {
    this.#corrupt += 1;
    this.#reports.quarantined(name, problem);
    await this.#folder.quarantine(path, name).catch((error: unknown) => {
      if (error instanceof SpillFolderRefused) this.#disable(error);
      else this.#reports.logger.warn(`Could not move ${name} to corrupt/: ${String(error)}`);
    });
  }

  #refused(error: unknown): void {
    if (this.#disabled) return; // said already, and for good
    this.#downUntil = performance.now() + this.#retryMs; // monotonic: a clock step does not move it
    // The next try opens the folder again: it may have been removed or remounted meanwhile.
    this.#opened = false;
    this.#reports.refused(error, this.#retryMs);
  }

  #disable(refusal: SpillFolderRefused): void {
    if (this.#disabled) return;
    this.#disabled = true;
    this.#opened = false;
    void this.#log?.close(); // nothing more is written into a folder refused for good
    clearInterval(this.#timer);
    this.#reports.disabled(refusal);
  }
}
