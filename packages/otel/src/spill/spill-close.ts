/** One step of closing: what it is waiting for (for the message when it gives up), and the work. */
export type CloseStep = readonly [what: string, work: () => Promise<unknown>];

/**
 * Runs `steps` one after another for at most `timeoutMs`. Resolves `undefined` when they all
 * finished, else the steps left unfinished (the one under way, then those not started): the disk
 * may hang (a stalled network mount), and closing must not hang with it. Never rejects: a step's
 * failure is its own to report.
 */
export async function closeWithin(
  steps: readonly CloseStep[],
  timeoutMs: number,
): Promise<string[] | undefined> {
  let index = 0;
  const run = (async () => {
    for (; index < steps.length; index += 1) {
      await (steps[index] as CloseStep)[1]().catch(() => {});
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  // Not unref'd: the process stays up long enough to say what it gave up.
  const deadline = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  const outcome = await Promise.race([run.then(() => 'done' as const), deadline]);
  clearTimeout(timer);
  return outcome === 'done' ? undefined : steps.slice(index).map(([what]) => what);
}
