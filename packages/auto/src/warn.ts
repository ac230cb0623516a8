import { printableLine } from '@aqm/wire';

/**
 * Writes one warning of `@aqm/auto` to stderr. Setup problems go here rather than through
 * OpenTelemetry's `diag`, which prints nothing unless the app gave it a logger: a zero-code user
 * must see why no trace arrives. Callers never pass the API key. A warning may quote the service
 * (an error body) or a value from the environment, so it is printed as one line with control
 * characters made visible, as `@aqm/otel`'s own stderr lines are.
 */
export function warn(message: string): void {
  console.warn(printableLine(`@aqm/auto: ${message}`));
}
