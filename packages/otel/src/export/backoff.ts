/** The retry schedule: exponential growth with full jitter. */
export interface BackoffPolicy {
  initialMs: number;
  factor: number;
  maxMs: number;
}

/** The schedule the issue asks for: 1 s, doubling, capped at 30 s. */
export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 1000, factor: 2, maxMs: 30_000 };

/**
 * Delay before retry number `attempt` (0-based): a uniformly random share of
 * `min(maxMs, initialMs * factor^attempt)`. Full jitter spreads the retries of many clients
 * after an outage instead of letting them hit the service in waves.
 */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.maxMs, policy.initialMs * policy.factor ** attempt);
  return Math.round(ceiling * random());
}
