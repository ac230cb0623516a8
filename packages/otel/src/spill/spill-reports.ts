import { printableLine } from '@aqm/wire/light';
import type { DiagLogger } from '@opentelemetry/api';
import { alert } from '../diag.js';
import { ThrottledReporter } from '../export/throttled-reporter.js';
import { errorCode, type SpillFolderRefused } from './spill-paths.js';

/**
 * Why traces go to disk at a flush's bound. The flush says it itself, in one line with the cause
 * (the last error) and where the traces are (see `boundedFlush`): the spell's own line would say
 * the same failure a second time.
 */
export const WHY_FLUSH_BOUND = 'forceFlush() reached flushTimeoutMs before they were delivered';

/** Least time between two "writing to disk" lines (and between two unowed "delivered" lines). */
export const DISK_NOTICE_INTERVAL_MS = 5 * 60_000;

/**
 * What the spill unit says about the disk, and the counts of what went through it. Whatever puts
 * traces at risk (the disk refusing writes, the folder refused, `close()` giving up) is said once
 * through `alert`: with no logging set up, as one line on stderr. So is a spell of writing to disk
 * (`wrote`) and its end (`emptied`), so that traces on disk are never a surprise. The rest goes
 * through the logger.
 */
export class SpillReports {
  readonly #logger: DiagLogger;
  /** The folder as messages show it: a control character in it cannot forge or steer a log line. */
  readonly #dir: string;
  /** At most one disk-full report a minute (like the sender's drop reports). */
  readonly #throttled: ThrottledReporter;
  readonly #now: () => number;
  #down = false;
  /** Traces written to disk, and read back and delivered, by this process (`stats().disk`). */
  #written = 0;
  #delivered = 0;
  /**
   * The spell of writing: from the first write after the folder was last seen empty to the next
   * time it is. `said`: its line was printed, and the line saying the folder was emptied is owed.
   */
  #spell: 'none' | 'unsaid' | 'said' = 'none';
  #spellTraces = 0;
  #lastWritingAt = Number.NEGATIVE_INFINITY;
  /** Read back since the last "delivered" line (held back lines add up into the next). */
  #replayed = { delivered: 0, dropped: 0 };
  #lastDeliveredAt = Number.NEGATIVE_INFINITY;

  constructor(logger: DiagLogger, dir: string, now: () => number = () => performance.now()) {
    this.#logger = logger;
    this.#dir = printableLine(dir);
    this.#throttled = new ThrottledReporter(logger, 60_000);
    this.#now = now;
  }

  get logger(): DiagLogger {
    return this.#logger;
  }

  /** Traces this process wrote to disk. */
  get writtenTraces(): number {
    return this.#written;
  }

  /** Traces this process read back from disk and the service accepted. */
  get deliveredTraces(): number {
    return this.#delivered;
  }

  /**
   * `traces` are now on disk; `why` (a fixed phrase, never the service's words) says what sent
   * them there. Counted; the first write of a spell is said (how many, where, why), at most one
   * such line every {@link DISK_NOTICE_INTERVAL_MS}: a flapping service does not flood stderr. A
   * spell held back by that bound is said at a later write of it, once the bound allows.
   */
  wrote(traces: number, why: string | undefined): void {
    this.recovered();
    this.#written += traces;
    if (this.#spell === 'none') this.#spellTraces = 0;
    this.#spellTraces += traces;
    if (this.#spell === 'said') return;
    if (why === WHY_FLUSH_BOUND) {
      // Said by the flush; the line saying the folder was emptied is owed all the same.
      this.#spell = 'said';
      return;
    }
    this.#spell = 'unsaid';
    const now = this.#now();
    if (now - this.#lastWritingAt < DISK_NOTICE_INTERVAL_MS) return;
    this.#lastWritingAt = now;
    this.#spell = 'said';
    alert(
      this.#logger,
      'warn',
      `persist-dir-writing:${this.#dir}`,
      `Writing traces to persistDir ${this.#dir} (${why ?? 'they could not be delivered or kept in memory'}): ` +
        `${this.#spellTraces} so far. They are sent from there once the service takes them, by this ` +
        'process or the next one on the folder; stats().disk counts what is written and sent back',
      0,
    );
  }

  /** Traces read back from disk settled: `delivered` accepted by the service, `dropped` given up. */
  replayed(delivered: number, dropped: number): void {
    this.#delivered += delivered;
    this.#replayed.delivered += delivered;
    this.#replayed.dropped += dropped;
  }

  /**
   * Nothing waits on disk any more (as far as this process sees): the spell of writing ends, and
   * what was read back since the last such line is said. The line that ends a said spell is never
   * held back (whoever saw it begin must see it end); others are at most one every
   * {@link DISK_NOTICE_INTERVAL_MS}, their counts adding up into the next.
   */
  emptied(): void {
    const owed = this.#spell === 'said';
    this.#spell = 'none';
    const { delivered, dropped } = this.#replayed;
    if (delivered + dropped === 0) return;
    const now = this.#now();
    if (!owed && now - this.#lastDeliveredAt < DISK_NOTICE_INTERVAL_MS) return;
    this.#lastDeliveredAt = now;
    this.#replayed = { delivered: 0, dropped: 0 };
    const lost =
      dropped === 0 ? '' : ` (${dropped} more read back were dropped; stats().droppedTraces says why)`;
    // At warn, as the line that began the spell: a log read at warn level shows both ends.
    alert(
      this.#logger,
      'warn',
      `persist-dir-delivered:${this.#dir}`,
      `Delivered ${delivered} trace(s) from persistDir ${this.#dir}${lost}; nothing waits there any more`,
      0,
    );
  }

  /** The disk refused a write or the folder's creation: said once until it takes writes again. */
  refused(error: unknown, retryMs: number): void {
    if (this.#down) return;
    this.#down = true;
    // The disk's own code (EROFS, ENOSPC, EACCES...), as the operator will search for it.
    const why = errorCode(error) ?? String(error);
    alert(
      this.#logger,
      'warn',
      'persist-dir-refused',
      `persistDir ${this.#dir} refuses writes (${why}): traces are kept in memory only (within ` +
        `maxQueueBytes) and the disk is tried again in ${retryMs / 1000} s`,
    );
  }

  recovered(): void {
    if (!this.#down) return;
    this.#down = false;
    this.#logger.info(`persistDir ${this.#dir} takes writes again`);
  }

  /** The folder is not used at all, for this process's life. */
  disabled(refusal: SpillFolderRefused): void {
    alert(
      this.#logger,
      'warn',
      'persist-dir-disabled',
      `persistDir ${this.#dir} is not used (${refusal.reason}): traces are kept in memory only ` +
        '(within maxQueueBytes); make persistDir a folder of its own to keep them on disk',
    );
  }

  evicted(traces: number, message: string): void {
    this.#throttled.report(
      'disk-full',
      'warn',
      `Dropped ${traces} trace(s) from persistDir, reason disk-full: ${message}`,
    );
  }

  quarantined(name: string, problem: string): void {
    this.#logger.warn(`Spill file ${name} cannot be read (${problem}); moved to corrupt/ in persistDir`);
  }

  /** `close()` stopped waiting for the disk: what it left undone, and what that means. */
  gaveUp(timeoutMs: number, pending: readonly string[]): void {
    alert(
      this.#logger,
      'warn',
      'persist-dir-close',
      `persistDir ${this.#dir}: closing gave up after ${timeoutMs} ms; unfinished: ${pending.join('; ')}. ` +
        'Records not yet written are lost; files this process had claimed stay in its owners/ folder ' +
        'and the next process on the folder takes them over',
    );
  }
}
