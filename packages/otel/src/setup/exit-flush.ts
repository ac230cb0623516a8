/** The signals after which the traces are flushed. */
export const FLUSH_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type FlushSignal = (typeof FLUSH_SIGNALS)[number];

/** The part of `process` used here (a fake in tests). */
export type ExitProcess = Pick<NodeJS.Process, 'pid' | 'on' | 'removeListener' | 'listeners' | 'kill'>;

/** What to run at exit. */
export interface ExitFlushSettings {
  /** Sends what is held; tracing goes on (the app may keep running). */
  flush(): Promise<void>;
  /** Sends what is held within its own bound, then stops tracing. */
  shutdown(): Promise<void>;
  /** Whether any trace is held (open or queued): only then is there anything to flush. */
  hasPending(): boolean;
  /** Longest a flush may hold the process (`AQM_FLUSH_TIMEOUT_MS`, or `shutdownTimeoutMs`). */
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
 *   stops tracing: it only flushes, and does nothing when nothing is held. A flush that outlasts
 *   the bound shuts tracing down instead, so that pending retries never hold a process that is
 *   ending.
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

  /** Flushes within the bound; past it, shuts down. One at a time. */
  const flushOrShutDown = (): void => {
    if (flushing) return;
    flushing = true;
    void within(safely(settings.flush), timeoutMs).then((flushed) => {
      flushing = false;
      if (flushed) return;
      uninstall();
      void within(safely(settings.shutdown), timeoutMs);
    });
  };

  const onBeforeExit = () => {
    let pending = false;
    try {
      pending = settings.hasPending();
    } catch {
      // Nothing known to flush.
    }
    if (pending) flushOrShutDown();
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
    void within(safely(settings.shutdown), timeoutMs).then(() => reraise(signal));
  };

  function uninstall(): void {
    proc.removeListener('beforeExit', onBeforeExit);
    for (const signal of FLUSH_SIGNALS) proc.removeListener(signal, onSignal);
  }

  proc.on('beforeExit', onBeforeExit);
  if (settings.signals !== false) for (const signal of FLUSH_SIGNALS) proc.on(signal, onSignal);
  return uninstall;
}
