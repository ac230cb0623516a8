import type { DiagLogger } from '@opentelemetry/api';
import { alert } from '../diag.js';
import { ThrottledReporter } from '../export/throttled-reporter.js';
import { errorCode, type SpillFolderRefused } from './spill-paths.js';

/**
 * What the spill unit says about the disk. Whatever puts traces at risk (the disk refusing writes,
 * the folder refused, `close()` giving up) is said once through `alert`: with no logging set up,
 * as one line on stderr. The rest goes through the logger.
 */
export class SpillReports {
  readonly #logger: DiagLogger;
  readonly #dir: string;
  /** At most one disk-full report a minute (like the sender's drop reports). */
  readonly #throttled: ThrottledReporter;
  #down = false;

  constructor(logger: DiagLogger, dir: string) {
    this.#logger = logger;
    this.#dir = dir;
    this.#throttled = new ThrottledReporter(logger, 60_000);
  }

  get logger(): DiagLogger {
    return this.#logger;
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
