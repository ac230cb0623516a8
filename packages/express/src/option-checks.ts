/**
 * Small validators for the options of `aqm()`. Each failure is a `TypeError` (wrong type) or a
 * `RangeError` (right type, out of range) naming the option, what it expects and what it got, in
 * the style of p-queue: ``Expected `maxCaptureBytes` to be a positive integer, got `0` (number)``.
 */

const MAX_SHOWN_CHARS = 60;

/** Renders a value for an error message: its text (shortened) and its type. */
export function describeValue(value: unknown): string {
  if (value === null) return '`null`';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  let text = String(value);
  if (text.length > MAX_SHOWN_CHARS) text = `${text.slice(0, MAX_SHOWN_CHARS)}…`;
  return `\`${text}\` (${typeof value})`;
}

/** A plain object (not null, not an array), as options objects must be. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Throws when `value` holds a key outside `known`: a typo would otherwise be silently ignored. */
export function rejectUnknownKeys(
  label: string,
  value: Record<string, unknown>,
  known: readonly string[],
): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw new TypeError(`Unknown option \`${label}${key}\`; known options are ${known.join(', ')}`);
    }
  }
}

/** An optional non-empty string option. */
export function stringOption(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`Expected \`${name}\` to be a non-empty string, got ${describeValue(value)}`);
  }
  return value;
}

/** An optional function option. */
export function functionOption<F>(name: string, value: unknown): F | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') {
    throw new TypeError(`Expected \`${name}\` to be a function, got ${describeValue(value)}`);
  }
  return value as F;
}

/** An integer option with bounds; `undefined` gives the default. */
export function integerOption(
  name: string,
  value: unknown,
  defaultValue: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return defaultValue;
  const expectation = `an integer from ${min} to ${max}`;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`Expected \`${name}\` to be ${expectation}, got ${describeValue(value)}`);
  }
  if (value < min || value > max) {
    throw new RangeError(`Expected \`${name}\` to be ${expectation}, got ${describeValue(value)}`);
  }
  return value;
}

// RFC 9110 token characters: what a header name may be made of.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** An optional HTTP header name option, returned lowercased (Node lowercases incoming names). */
export function headerNameOption(name: string, value: unknown, defaultValue: string): string {
  if (value === undefined) return defaultValue;
  if (typeof value !== 'string' || !HEADER_NAME.test(value)) {
    throw new TypeError(
      `Expected \`${name}\` to be an HTTP header name such as x-session-id, got ${describeValue(value)}`,
    );
  }
  return value.toLowerCase();
}
