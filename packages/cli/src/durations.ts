import { CliUsageError } from './usage-error.js';

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/gy;

/**
 * Parses a duration such as `30m`, `24h`, `7d`, `1h30m` or `500ms` into milliseconds. Units: ms,
 * s, m, h, d (24 h), w (7 d). Returns `undefined` when the text is not a duration.
 * @example
 * ```ts
 * parseDuration('1h30m'); // 5_400_000
 * ```
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  DURATION_PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let match = DURATION_PART.exec(trimmed); match !== null; match = DURATION_PART.exec(trimmed)) {
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
    consumed = DURATION_PART.lastIndex;
  }
  return consumed === trimmed.length ? total : undefined;
}

/** Like {@link parseDuration} but throws a usage error naming the flag, for flag values. */
export function requireDuration(text: string, flag: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) {
    throw new CliUsageError(`${flag} must be a duration such as 30s, 30m, 24h or 7d, got "${text}".`);
  }
  return ms;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/i;

/**
 * Parses a `--since`/`--until` value: a duration before `now` (`24h` → 24 hours ago), `now`, or
 * an ISO 8601 date or date-time. A date or a date-time without offset is local time, as displayed.
 * Throws a usage error naming the flag otherwise.
 * @example
 * ```ts
 * parseTimeBound('7d', '--since', new Date('2026-01-08T00:00:00Z')); // 2026-01-01T00:00:00.000Z
 * parseTimeBound('2026-01-31T12:00:00Z', '--until', new Date());
 * ```
 */
export function parseTimeBound(text: string, flag: string, now: Date): Date {
  const value = text.trim();
  if (value.toLowerCase() === 'now') return new Date(now.getTime());
  const ms = parseDuration(value);
  if (ms !== undefined) return new Date(now.getTime() - ms);
  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly !== null) {
    const [, y, m, d] = dateOnly;
    const local = new Date(Number(y), Number(m) - 1, Number(d));
    if (local.getMonth() === Number(m) - 1 && local.getDate() === Number(d)) return local;
  } else if (DATE_TIME.test(value)) {
    const parsed = new Date(value.replace(' ', 'T'));
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  throw new CliUsageError(
    `${flag} must be a duration before now (30m, 24h, 7d), "now", or an ISO 8601 date such as 2026-01-31 or 2026-01-31T12:00:00Z, got "${text}".`,
  );
}

/** `--since`/`--until` flags as given. */
export interface TimeRangeFlags {
  since?: string | undefined;
  until?: string | undefined;
}

/**
 * Resolves `--since`/`--until` into a range. `defaultSince` applies when `--since` is absent
 * (endpoints that need a start); `end` defaults to now when a start is set.
 */
export function resolveTimeRange(
  flags: TimeRangeFlags,
  now: Date,
  defaultSince?: string,
): { start?: Date; end?: Date } {
  const sinceText = flags.since ?? defaultSince;
  const start = sinceText === undefined ? undefined : parseTimeBound(sinceText, '--since', now);
  let end = flags.until === undefined ? undefined : parseTimeBound(flags.until, '--until', now);
  if (end === undefined && start !== undefined) end = new Date(now.getTime());
  if (start !== undefined && end !== undefined && end.getTime() < start.getTime()) {
    throw new CliUsageError('--until must be on or after --since.');
  }
  return { ...(start && { start }), ...(end && { end }) };
}
