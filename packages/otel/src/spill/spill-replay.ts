import type { PipelineDebug } from '../debug/pipeline-debug.js';
import type { DeliveryOutcome } from '../export/queued-trace.js';
import type { SpillFileName, SpillRecord } from './spill-file.js';
import type { SpillFolder } from './spill-folder.js';
import type { SpillLedger } from './spill-ledger.js';
import type { SpillReports } from './spill-reports.js';

/** How long this process leaves alone a file it had to return (the service failing, or refusing it). */
const PARK_MS = 60_000;

/** What the spill unit needs of the sender: room, and a way to queue records read back from disk. */
export interface ReplayTarget {
  /** Whether a file of `traces`/`bytes` may be queued now (room, and the service not known to be failing). */
  canTakeReplay(traces: number, bytes: number): boolean;
  /** Queues records read from disk; their tickets settle `persisted` when they stay on disk. */
  admit(records: readonly SpillRecord[], queuedAt: number): Promise<DeliveryOutcome>[];
}

/** What a {@link SpillReplay} uses of the `DiskSpill` that owns it. */
export interface ReplayHost {
  readonly folder: SpillFolder;
  readonly ledger: SpillLedger;
  readonly reports: SpillReports;
  readonly debug: PipelineDebug | undefined;
  readonly dir: string;
  /** Whether `close()` has begun: no file is started, and files whose records were dropped stay. */
  isClosing(): boolean;
  /** Moves a file that cannot be read to `corrupt/` (counted and said). */
  quarantine(path: string, name: string, problem: string): Promise<void>;
  /** Replays again if the spill may (a file finished, or a poke came during a run). */
  poke(): void;
}

/**
 * Feeds files from disk back to the sender, oldest first, while it has room: each is claimed,
 * read, admitted, and once every record of it settled, deleted, or returned to the pool (and left
 * alone for a while) when some stay on disk. One run at a time; a poke during a run runs it again.
 */
export class SpillReplay {
  readonly #host: ReplayHost;
  #run: Promise<void> | undefined;
  #pokedAgain = false;
  readonly #finishing = new Set<Promise<void>>();
  /**
   * Files this process returned to the folder unsent, and until when it leaves them alone: a file
   * the service keeps refusing (a 409) is not sent in a loop. Bounded by the folder's files.
   */
  readonly #parked = new Map<string, number>();

  constructor(host: ReplayHost) {
    this.#host = host;
  }

  /** The run reading files now, if any. */
  get running(): Promise<void> | undefined {
    return this.#run;
  }

  /** Settles once the files handed to the sender so far have finished (deleted or returned). */
  finishing(): Promise<unknown> {
    return Promise.allSettled([...this.#finishing]);
  }

  /** Forgets parked files whose time is up (`now`, epoch ms). */
  unparkExpired(now: number): void {
    for (const [name, until] of this.#parked) if (until <= now) this.#parked.delete(name);
  }

  /** Starts a run, or asks the one running to run again when it ends. */
  start(target: ReplayTarget): void {
    if (this.#run !== undefined) {
      this.#pokedAgain = true;
      return;
    }
    this.#run = this.#replayFiles(target)
      .catch((error: unknown) =>
        this.#host.reports.logger.warn(`Replaying from persistDir failed: ${String(error)}`),
      )
      .finally(() => {
        this.#run = undefined;
        if (this.#pokedAgain) {
          this.#pokedAgain = false;
          this.#host.poke();
        }
      });
  }

  async #replayFiles(target: ReplayTarget): Promise<void> {
    const { folder, ledger } = this.#host;
    for (;;) {
      const now = Date.now();
      const next = ledger.oldest((file) => (this.#parked.get(file.name) ?? 0) > now);
      if (this.#host.isClosing() || next === undefined || !target.canTakeReplay(next.traces, next.bytes))
        return;
      // Counted as claimed before the rename, so stats() never misses it in between.
      this.#parked.delete(next.name);
      ledger.removeFromPool(next);
      ledger.claimed(next);
      if (!(await folder.claim(next.name))) {
        ledger.unclaimed(next); // another process has it
        continue;
      }
      const decoded = await folder.readClaimed(next);
      if ('problem' in decoded) {
        ledger.unclaimed(next);
        await this.#host.quarantine(folder.claimedPath(next.name), next.name, decoded.problem);
        continue;
      }
      if (this.#host.isClosing()) {
        ledger.unclaimed(next);
        await folder.release(next.name);
        return;
      }
      this.#host.debug?.replaying(this.#host.dir, next.name, decoded.records.length);
      const tickets = target.admit(decoded.records, next.writtenAt);
      const finishing = Promise.all(tickets)
        .then((outcomes) => this.#finish(next, outcomes))
        .catch((error: unknown) => this.#host.reports.logger.warn(`persistDir: ${String(error)}`));
      this.#finishing.add(finishing);
      void finishing.finally(() => this.#finishing.delete(finishing));
      // Lets the sender take these into a request, so the next file can fill the next free slot.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Every record of a claimed file settled: delete the file, or return it when some stay on disk. */
  async #finish(file: SpillFileName, outcomes: readonly DeliveryOutcome[]): Promise<void> {
    const { folder, ledger } = this.#host;
    const closing = this.#host.isClosing();
    const keep = outcomes.includes('persisted') || (closing && outcomes.includes('dropped'));
    const count = (wanted: DeliveryOutcome) => outcomes.filter((outcome) => outcome === wanted).length;
    // Records dropped from a file that stays on disk are not lost: they are sent again later.
    this.#host.reports.replayed(count('delivered'), keep ? 0 : count('dropped'));
    this.#host.debug?.replayed(file.name, outcomes, !keep);
    // Counted as claimed until it is back in the pool or gone: never seen as neither, so the disk
    // is not taken for emptied (and said so) while a file is on its way back.
    try {
      if (keep) {
        if (!closing) this.#parked.set(file.name, Date.now() + PARK_MS);
        await folder.release(file.name);
        ledger.addToPool(file);
      } else {
        await folder.removeClaimed(file.name);
      }
    } finally {
      ledger.unclaimed(file);
    }
    this.#host.poke();
  }
}
