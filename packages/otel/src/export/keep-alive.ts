/** Longest a single timer may be set for (larger values fire at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Keeps the event loop alive until `promise` settles, for at most `maxMs`. The retry timers are
 * unref'd so that background work never holds a process open; but when the app itself awaits a
 * flush, a process with nothing else to do must not exit (or end with an unsettled top-level
 * await) mid-wait. The cap keeps a flush that cannot finish (sending paused by a 401 that is never
 * fixed) from holding the process forever; the promise itself still settles whenever it can.
 */
export function keepAliveUntil<T>(promise: Promise<T>, maxMs: number): Promise<T> {
  const holder = setInterval(() => {}, MAX_TIMER_MS);
  const cap = setTimeout(() => clearInterval(holder), Math.min(maxMs, MAX_TIMER_MS));
  cap.unref();
  return promise.finally(() => {
    clearInterval(holder);
    clearTimeout(cap);
  });
}

/**
 * Waits for every ticket to settle (`true`), for at most `boundMs` (`false`), or until `stop`
 * settles (`false`: the caller stopped waiting), holding the process meanwhile: the app awaits it.
 * The keep-alive outlasts the bound a little, so the bound always fires while it holds.
 */
export function waitHoldingProcess(
  tickets: readonly Promise<unknown>[],
  boundMs: number,
  stop?: Promise<void>,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), boundMs);
    timer.unref(); // keepAliveUntil holds the process meanwhile
  });
  const delivered = Promise.all(tickets).then(() => true);
  const stopped = stop?.then(() => false);
  const ended = Promise.race(stopped === undefined ? [delivered, bound] : [delivered, bound, stopped]);
  return keepAliveUntil(ended, boundMs + 1000).finally(() => clearTimeout(timer));
}
