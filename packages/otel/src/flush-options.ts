import { visibleControls } from '@aqm/wire/light';
import { EnvironmentConfigError } from './connection-options.js';
import { describeValue, integerOption, optionLabel } from './option-checks.js';
import { EnvValueError, readEnv } from './setup/env-values.js';

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
  try {
    // The check of ENV_VARIABLES, shared with @aqm/auto and the forwarder.
    return readEnv<number>(env, ENV_VAR) ?? DEFAULT_FLUSH_TIMEOUT_MS;
  } catch (error) {
    if (!(error instanceof EnvValueError)) throw error;
    throw new EnvironmentConfigError(
      [],
      [
        `Expected ${optionLabel('flushTimeoutMs', ENV_VAR)} to be ${error.expectation}, got ${visibleControls(describeValue(error.value))}`,
      ],
    );
  }
}
