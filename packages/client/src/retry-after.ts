/**
 * Parses a `Retry-After` header into milliseconds from `now`: either delay-seconds (`120`,
 * decimals tolerated) or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`; a past date means 0).
 * Returns `undefined` when the header is absent or unreadable, so the caller falls back to backoff.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000);
  // An HTTP date always names its day and month; this keeps numbers like "-1" from parsing as years.
  if (!/[a-z]/i.test(raw)) return undefined;
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
