import { type FieldError, formatPath } from '@aqm/wire';
import { isPlainObject } from './checks.js';

/** A point in time as the client accepts it: a `Date` or an ISO 8601 string. */
export type DateInput = Date | string;

/**
 * Returns a copy of `value` with every `Date` replaced by its ISO 8601 UTC string. An invalid
 * Date is left in place and reported in `errors` at its path (e.g. `traces[0].startTime`).
 */
export function convertDates(value: unknown, errors: FieldError[], path: PropertyKey[] = []): unknown {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) {
      errors.push({ path: formatPath(path), message: 'must be a valid Date (got Invalid Date)' });
      return value;
    }
    return value.toISOString();
  }
  if (Array.isArray(value)) return value.map((item, index) => convertDates(item, errors, [...path, index]));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = convertDates(item, errors, [...path, key]);
    return out;
  }
  return value;
}

/** True when `original` is a timestamp and `normalized` is the same instant as `toISOString()` renders it. */
function isSameInstant(original: string, normalized: string): boolean {
  const time = Date.parse(original);
  return !Number.isNaN(time) && new Date(time).toISOString() === normalized;
}

/**
 * Takes the caller's value (kept whole, so fields the schema does not know still travel) and,
 * wherever the wire schema normalised a timestamp string to UTC (`+02:00` → `Z`), uses the
 * normalised string, so every timestamp leaves as ISO 8601 UTC.
 */
export function adoptNormalizedTimestamps(sent: unknown, parsed: unknown): unknown {
  if (typeof sent === 'string') {
    return typeof parsed === 'string' && parsed !== sent && isSameInstant(sent, parsed) ? parsed : sent;
  }
  if (Array.isArray(sent)) {
    return Array.isArray(parsed) ? sent.map((item, i) => adoptNormalizedTimestamps(item, parsed[i])) : sent;
  }
  if (isPlainObject(sent) && isPlainObject(parsed)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(sent)) {
      out[key] = key in parsed ? adoptNormalizedTimestamps(item, parsed[key]) : item;
    }
    return out;
  }
  return sent;
}
