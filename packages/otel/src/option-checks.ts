/**
 * Small validators for constructor options. Each failure is a `TypeError` (wrong type) or
 * `RangeError` (right type, out of range) whose message names the option, what it expects and
 * what it got, in the style of p-queue: ``Expected `concurrency` to be a positive integer, got `0` (number)``.
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

/** The option's name as shown in messages, with the environment variable it came from, if any. */
export function optionLabel(name: string, envVar?: string): string {
  return envVar === undefined ? `\`${name}\`` : `\`${name}\` (from the ${envVar} environment variable)`;
}

/** An integer option with bounds; `undefined` gives the default. */
export function integerOption(
  name: string,
  value: unknown,
  defaultValue: number,
  min: number,
  max: number = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return defaultValue;
  const expectation =
    max === Number.MAX_SAFE_INTEGER
      ? min === 1
        ? 'a positive integer'
        : `an integer >= ${min}`
      : `an integer from ${min} to ${max}`;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`Expected \`${name}\` to be ${expectation}, got ${describeValue(value)}`);
  }
  if (value < min || value > max) {
    throw new RangeError(`Expected \`${name}\` to be ${expectation}, got ${describeValue(value)}`);
  }
  return value;
}

/** A number option within `[min, max]`; `undefined` gives the default. */
export function rangeOption(
  name: string,
  value: unknown,
  defaultValue: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return defaultValue;
  const expectation = `a number from ${min} to ${max}`;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new TypeError(`Expected \`${name}\` to be ${expectation}, got ${describeValue(value)}`);
  }
  if (value < min || value > max) {
    throw new RangeError(`Expected \`${name}\` to be ${expectation}, got ${describeValue(value)}`);
  }
  return value;
}

/** An optional non-empty string option. */
export function stringOption(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`Expected \`${name}\` to be a non-empty string, got ${describeValue(value)}`);
  }
  return value;
}

/** An optional boolean option. */
export function booleanOption(name: string, value: unknown, defaultValue: boolean): boolean {
  if (value === undefined) return defaultValue;
  if (typeof value !== 'boolean') {
    throw new TypeError(`Expected \`${name}\` to be a boolean, got ${describeValue(value)}`);
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
