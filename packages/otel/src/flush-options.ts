import { EnvironmentConfigError } from './connection-options.js';
import { describeValue, integerOption, optionLabel } from './option-checks.js';

/** `flushTimeoutMs` when neither the option nor `AQM_FLUSH_TIMEOUT_MS` is set: the SDK's export timeout. */
export const DEFAULT_FLUSH_TIMEOUT_MS = 30_000;
/** Longest `flushTimeoutMs` (10 minutes), as `@aqm/auto` takes for `AQM_FLUSH_TIMEOUT_MS`. */
export const MAX_FLUSH_TIMEOUT_MS = 600_000;
const ENV_VAR = 'AQM_FLUSH_TIMEOUT_MS';

/**
 * `flushTimeoutMs`: the option, else `AQM_FLUSH_TIMEOUT_MS` (an empty or blank variable counting as
 * unset), else 30000. A bad value passed in code throws a `TypeError`/`RangeError` naming it; a bad
 * value in the environment throws an `EnvironmentConfigError` (the component then turns itself
 * off with one warning, as for the connection settings).
 *
 * @example
 * resolveFlushTimeout({}, { AQM_FLUSH_TIMEOUT_MS: '5000' }); // 5000
 */
export function resolveFlushTimeout(
  raw: { flushTimeoutMs?: unknown },
  env: Record<string, string | undefined>,
): number {
  if (raw.flushTimeoutMs !== undefined) {
    return integerOption(
      'flushTimeoutMs',
      raw.flushTimeoutMs,
      DEFAULT_FLUSH_TIMEOUT_MS,
      1,
      MAX_FLUSH_TIMEOUT_MS,
    );
  }
  const text = env[ENV_VAR]?.trim();
  if (text === undefined || text === '') return DEFAULT_FLUSH_TIMEOUT_MS;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > MAX_FLUSH_TIMEOUT_MS) {
    throw new EnvironmentConfigError(
      [],
      [
        `Expected ${optionLabel('flushTimeoutMs', ENV_VAR)} to be an integer from 1 to ${MAX_FLUSH_TIMEOUT_MS}, got ${describeValue(text)}`,
      ],
    );
  }
  return value;
}
