/**
 * Runs `read` and returns its result, or `fallback` if it throws: one odd span or attribute must
 * never cost the whole trace.
 */
export function attempt<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}
