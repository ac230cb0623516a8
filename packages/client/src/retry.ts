import { MAX_TIMER_MS } from './checks.js';
import type { AqmError } from './errors.js';

/** Statuses worth another attempt: rate limiting and gateway/availability failures. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** How one attempt of the retry loop ended. */
export type AttemptOutcome<T> =
  | { ok: true; value: T }
  /** `transient`: the failure may pass (connection, timeout, 429, 502-504). */
  | { ok: false; error: AqmError; transient: boolean; retryAfterMs?: number | undefined };

/** Time and chance, injectable so tests are deterministic. */
export interface RetryClock {
  /** Resolves after `ms`, or rejects with `signal.reason` when the signal aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1). */
  random(): number;
}

/** The retry settings of one call. */
export interface RetryPolicy {
  /** Whether the request is safe to send again at all (the route's `retryable`). */
  retryable: boolean;
  maxRetries: number;
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
  /** A longer `Retry-After` is not waited out: the error is thrown at once. */
  maxRetryAfterMs: number;
}

/** Exponential backoff with full jitter: random(0, min(maxDelay, initial · 2^retry)). */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  return random() * Math.min(policy.maxRetryDelayMs, policy.initialRetryDelayMs * 2 ** retry);
}

/**
 * A `sleep` that ends early on abort. Its timer is deliberately ref'd: the caller is awaiting the
 * retry, so a short script must not exit in the middle of it.
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The default clock: real timers and `Math.random`. */
export const systemClock: RetryClock = { sleep: abortableSleep, random: Math.random };

/**
 * Runs `attempt` until it succeeds, fails for good, or the retries are used up; then throws the
 * last error. Waits between attempts follow `Retry-After` when the service sent it, backoff
 * otherwise. An abort of `signal` ends the wait at once with the signal's reason.
 */
export async function withRetries<T>(
  attempt: (index: number) => Promise<AttemptOutcome<T>>,
  policy: RetryPolicy,
  clock: RetryClock,
  signal: AbortSignal | undefined,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    const outcome = await attempt(retry);
    if (outcome.ok) return outcome.value;
    if (!outcome.transient || !policy.retryable || retry >= policy.maxRetries) throw outcome.error;
    // A caller should not sit blocked for an hour because the service asked for it.
    if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > policy.maxRetryAfterMs)
      throw outcome.error;
    await clock.sleep(outcome.retryAfterMs ?? backoffDelay(retry, policy, clock.random), signal);
  }
}
