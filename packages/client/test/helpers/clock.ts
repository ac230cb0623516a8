import { CLOCK } from '../../src/internals.js';
import type { AqmClientOptions } from '../../src/options.js';

/** A clock whose sleeps return at once and are recorded, with a fixed random source. */
export function fakeClock(random = 0.5) {
  const sleeps: number[] = [];
  return {
    sleeps,
    clock: {
      random: () => random,
      sleep: async (ms: number, signal?: AbortSignal) => {
        signal?.throwIfAborted();
        sleeps.push(ms);
      },
    },
  };
}

/** Client options with a test clock attached (through the internal, unexported key). */
export function withClock(
  options: AqmClientOptions,
  clock: ReturnType<typeof fakeClock>['clock'],
): AqmClientOptions {
  return { ...options, [CLOCK]: clock } as AqmClientOptions;
}
