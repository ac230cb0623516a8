import type { RetryClock } from './retry.js';

/**
 * Not part of the public API (not exported from the package): an options key through which
 * tests hand the client a deterministic clock (sleep and random source).
 */
export const CLOCK: unique symbol = Symbol('aqm.client.clock');

/** Client options carrying a test clock. */
export interface WithClock {
  [CLOCK]?: Partial<RetryClock>;
}
