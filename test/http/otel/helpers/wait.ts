import { setTimeout as delay } from 'node:timers/promises';

/**
 * Resolves once `condition()` holds, checking every few milliseconds; rejects naming `what` when it
 * still does not hold after `timeoutMs`. The deadline bounds a failure; it is not a guess at timing.
 */
export async function waitFor(
  condition: () => boolean,
  what: string,
  timeoutMs = 15_000,
  describe: () => string = () => '',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      const detail = describe();
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${detail ? ` (${detail})` : ''}`);
    }
    await delay(10);
  }
}

/** Races `promise` against a deadline; rejects naming `what` if the deadline comes first. */
export async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
