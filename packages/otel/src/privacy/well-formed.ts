type WithToWellFormed = { toWellFormed?: () => string };

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const hasNative = typeof (String.prototype as WithToWellFormed).toWellFormed === 'function';

/**
 * Repairs text for JSON and for the service: lone surrogates become U+FFFD (natively where the
 * runtime has `String.prototype.toWellFormed`, else with an equivalent replace), and NUL characters
 * become U+FFFD too, since many stores reject them.
 */
export function toWellFormedText(value: string): string {
  let out = hasNative ? (value as WithToWellFormed).toWellFormed!() : value.replace(LONE_SURROGATE, '\uFFFD');
  if (out.includes('\0')) out = out.replaceAll('\0', '\uFFFD');
  return out;
}

/** The fallback repair, exported for tests on runtimes that have the native one. */
export function replaceLoneSurrogates(value: string): string {
  return value.replace(LONE_SURROGATE, '\uFFFD');
}
