/**
 * Waits `ms` on an unref'd timer (a pending retry never keeps the process alive), or less when
 * one of the signals aborts. Never rejects.
 */
export function sleep(ms: number, signals: readonly AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    if (signals.some((signal) => signal.aborted)) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    for (const signal of signals) signal.addEventListener('abort', done, { once: true });
  });
}
