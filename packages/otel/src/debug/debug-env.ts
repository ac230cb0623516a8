/** Which switch turned the debug lines on. */
export type DebugSource = 'AQM_DEBUG' | 'OTEL_LOG_LEVEL';

const ON_WORDS = new Set(['1', 'true', 'yes', 'on']);
/** `OTEL_LOG_LEVEL` values that include debug messages. */
const DEBUG_LEVELS = new Set(['DEBUG', 'VERBOSE', 'ALL']);

/**
 * Whether the environment asks for debug lines: `AQM_DEBUG` (`1`, `true`, `yes`, `on`) first, then
 * `OTEL_LOG_LEVEL` at `debug` or more (`verbose`, `all`).
 *
 * @example
 * debugSource({ AQM_DEBUG: '1' }); // 'AQM_DEBUG'
 */
export function debugSource(env: Record<string, string | undefined>): DebugSource | undefined {
  const aqm = env.AQM_DEBUG?.trim().toLowerCase();
  if (aqm !== undefined && ON_WORDS.has(aqm)) return 'AQM_DEBUG';
  const level = env.OTEL_LOG_LEVEL?.trim().toUpperCase();
  if (level !== undefined && DEBUG_LEVELS.has(level)) return 'OTEL_LOG_LEVEL';
  return undefined;
}
