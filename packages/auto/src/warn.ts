/**
 * Writes one warning of `@aqm/auto` to stderr. Setup problems go here rather than through
 * OpenTelemetry's `diag`, which prints nothing unless the app gave it a logger: a zero-code user
 * must see why no trace arrives. Callers never pass the API key.
 */
export function warn(message: string): void {
  console.warn(`@aqm/auto: ${message}`);
}
