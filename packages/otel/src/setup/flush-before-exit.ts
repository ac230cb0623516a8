/** The part of `process` used here (an `EventEmitter` in tests). */
export interface BeforeExitProcess {
  on(event: 'beforeExit', listener: () => void): unknown;
  removeListener(event: 'beforeExit', listener: () => void): unknown;
}

/** What {@link flushBeforeExit} needs of the processor. */
export interface FlushTarget {
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
  stats(): { queuedTraces: number; openTraces: number };
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
 * Sends what `target` holds when the app's event loop runs dry (`beforeExit`), so a script that
 * ends without calling `shutdown()` does not lose its last traces in silence (the pipeline's
 * timers are unref'd: without this, the process ends before they fire). Only when traces are held,
 * and holding the process at most `timeoutMs`; past it, `shutdown()` (within its own bound), which
 * says on stderr what was not delivered. `beforeExit` is not always the end (the app may start more
 * work, and the event comes again), so a flush that finishes in time never stops tracing. Signals
 * are left to the app. Never throws; returns the function that removes the listener.
 *
 * @example
 * const uninstall = flushBeforeExit(processor, 10_000);
 */
export function flushBeforeExit(
  target: FlushTarget,
  timeoutMs: number,
  proc: BeforeExitProcess = process,
): () => void {
  let flushing = false;
  const safely = (run: () => Promise<void>): Promise<void> => {
    try {
      return run().catch(() => {});
    } catch {
      return Promise.resolve();
    }
  };
  const onBeforeExit = (): void => {
    if (flushing) return;
    let pending = false;
    try {
      const { queuedTraces, openTraces } = target.stats();
      pending = queuedTraces + openTraces > 0;
    } catch {
      // Nothing known to flush.
    }
    if (!pending) return;
    flushing = true;
    void within(
      safely(() => target.forceFlush()),
      timeoutMs,
    ).then((flushed) => {
      flushing = false;
      if (flushed) return;
      uninstall();
      void within(
        safely(() => target.shutdown()),
        timeoutMs,
      );
    });
  };
  function uninstall(): void {
    proc.removeListener('beforeExit', onBeforeExit);
  }
  proc.on('beforeExit', onBeforeExit);
  return uninstall;
}
