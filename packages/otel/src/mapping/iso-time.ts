/** The last whole second formatted, since the spans of one trace mostly share their second. */
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/**
 * Epoch milliseconds → ISO 8601 UTC with milliseconds (`2026-01-31T12:00:00.123Z`), as
 * `Date.prototype.toISOString` gives it, with the date part reused within a second. An
 * out-of-range time becomes `fallbackMs`.
 */
export function isoOf(ms: number, fallbackMs: number): string {
  const whole = Math.floor(ms);
  const second = Math.floor(whole / 1000);
  if (second !== cachedSecond) {
    const date = new Date(second * 1000);
    if (Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999 || date.getUTCFullYear() < 0) {
      return new Date(fallbackMs).toISOString();
    }
    cachedSecond = second;
    cachedPrefix = date.toISOString().slice(0, 19);
  }
  const millis = whole - second * 1000;
  return `${cachedPrefix}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}
