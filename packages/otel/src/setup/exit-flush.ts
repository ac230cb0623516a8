import { diskShareOf } from '../export/bounded-flush.js';
/** The signals after which the traces are flushed. */
export const FLUSH_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type FlushSignal = (typeof FLUSH_SIGNALS)[number];

/** The part of `process` used here (a fake in tests). */
export type ExitProcess = Pick<NodeJS.Process, 'pid' | 'on' | 'removeListener' | 'listeners' | 'kill'>;

/** What to run at exit. */
export interface ExitFlushSettings {
  /** Sends what is held; tracing goes on (the app may keep running). */
  flush(): Promise<void>;
  /**
   * Sends what is held within `timeoutMs`, then stops tracing (what is left goes to disk, or is
   * dropped). Given what is left of the bound, less the share kept for that last step.
   */
  shutdown(timeoutMs: number): Promise<void>;
  /** Whether any trace is held (open or queued): only then is there anything to flush. */
  hasPending(): boolean;
  /**
   * Whether completed traces are still queued, not delivered (after a flush: it stopped at its
   * bound, or delivery is blocked by a 401/404). Then the exit shuts down rather than flushing
   * again at the next `beforeExit`. Default: `hasPending`.
   */
  hasQueued?(): boolean;
  /**
   * Longest the process is held at its end, flush and shutdown together (`AQM_FLUSH_TIMEOUT_MS`
   * for `@aqm/auto`, `shutdownTimeoutMs` for `registerAqm()`).
   */
  timeoutMs: number;
  /**
   * Also act on `SIGINT`/`SIGTERM` (`@aqm/auto`, which owns the app's start). `false` for
   * `registerAqm()`, called from the app's own code: its signals are the app's. Default `true`.
   */
  signals?: boolean;
  process?: ExitProcess;
}

/** Resolves when `work` settles or after `ms`, whichever is first; `true` when `work` finished. */
function within(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  // Not unref'd: holding the process until the flush is done (or the bound passed) is the point.
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const done = work.then(
    () => true,
    () => true,
  );
  return Promise.race([done, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Flushes the traces when the process ends, without changing how it ends:
 *
 * - `beforeExit` (the event loop ran dry) with traces held: flush them within the bound; the process
 *   then exits as it would have, with its exit code. `beforeExit` is not always the end (a listener
 *   of the app may start more work, and the event comes again once that is done), so this never
 *   stops tracing: it only flushes, and does nothing when nothing is held. A flush that does not
 *   deliver everything before the last share of the bound ({@link diskShareOf}) shuts tracing
 *   down within that share instead, so that pending retries never hold a process that is ending
 *   and the whole hold stays within the bound.
 * - With `signals` (the default), `SIGINT`/`SIGTERM` when the app has no listener of its own: `shutdown()` within the bound, then
 *   our listener is removed and the signal raised again, so the process ends by that signal, as it
 *   would have without us. A second signal while flushing ends it at once.
 * - `SIGINT`/`SIGTERM` when the app listens too: only a flush (the app's listener runs and decides
 *   what happens), with the same fallback to `shutdown()` past the bound.
 *
 * Returns the function that removes every listener.
 *
 * @example
 * const uninstall = installExitFlush({ flush, shutdown, hasPending, timeoutMs: 5000 });
 */
export function installExitFlush(settings: ExitFlushSettings): () => void {
  const proc: ExitProcess = settings.process ?? process;
  const { timeoutMs } = settings;
  let ending = false;
  let flushing = false;

  const safely = (run: () => Promise<void>): Promise<void> => {
    try {
      return run().catch(() => {});
    } catch {
      return Promise.resolve();
    }
  };

  const safeCheck = (check: () => boolean): boolean => {
    try {
      return check();
    } catch {
      return false; // Nothing known to be held.
    }
  };
  const pending = () => safeCheck(() => settings.hasPending());
  const queued = () => safeCheck(() => (settings.hasQueued ?? settings.hasPending)());

  /**
   * Flushes within the bound less its last share; when that leaves traces held, shuts down within
   * what is left of the bound (once: this also removes the listeners). One at a time.
   */
  const flushOrShutDown = (): void => {
    if (flushing) return;
    flushing = true;
    const startedAt = Date.now();
    void within(safely(settings.flush), timeoutMs - diskShareOf(timeoutMs)).then((flushed) => {
      flushing = false;
      if (flushed && !queued()) return;
      uninstall();
      void shutDownWithin(Math.max(1, timeoutMs - (Date.now() - startedAt)));
    });
  };

  /**
   * Shuts down, holding the process `left` ms at most: the shutdown waits for delivery until the
   * last share of the bound, and has that share to end its requests and write what is left to disk
   * (a signal raised again at `left` would otherwise end the process mid-write).
   */
  const shutDownWithin = (left: number): Promise<boolean> =>
    within(
      safely(() => settings.shutdown(Math.max(1, left - diskShareOf(timeoutMs)))),
      left,
    );

  const onBeforeExit = () => {
    if (pending()) flushOrShutDown();
  };

  const reraise = (signal: NodeJS.Signals) => {
    uninstall();
    proc.kill(proc.pid, signal);
  };

  const onSignal = (signal: NodeJS.Signals) => {
    const appListens = proc.listeners(signal).some((listener) => listener !== onSignal);
    if (appListens) {
      flushOrShutDown();
      return;
    }
    if (ending) {
      reraise(signal);
      return;
    }
    ending = true;
    void shutDownWithin(timeoutMs).then(() => reraise(signal));
  };

  function uninstall(): void {
    proc.removeListener('beforeExit', onBeforeExit);
    for (const signal of FLUSH_SIGNALS) proc.removeListener(signal, onSignal);
  }

  proc.on('beforeExit', onBeforeExit);
  if (settings.signals !== false) for (const signal of FLUSH_SIGNALS) proc.on(signal, onSignal);
  return uninstall;
}
