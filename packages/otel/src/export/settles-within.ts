/**
 * Waits for `work` at most `ms`: true when it settled (resolved or rejected) in time, false when
 * the deadline came first. The timer is not unref'd: what awaits this is bounded by it, and a
 * process waiting on it must not exit before it says what it gave up.
 *
 * @example
 * if (!(await settlesWithin(sender.flush(), 30_000))) logger.warn('gave up waiting');
 */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(settled, settled), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function settled(): true {
  return true;
}
