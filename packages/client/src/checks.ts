/** The longest delay `setTimeout` honours; larger values fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A short, safe rendering of a rejected value for an error message. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string')
    return value.length > 80 ? `${JSON.stringify(value.slice(0, 80))}…` : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? 'Invalid Date' : `Date ${value.toISOString()}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Throws unless `value` is a finite number in `[min, MAX_TIMER_MS]` (an integer when `integer`). */
export function checkNumber(
  name: string,
  value: unknown,
  { min, integer = false, exclusiveMin = false }: { min: number; integer?: boolean; exclusiveMin?: boolean },
): number {
  const expectation = `${integer ? 'an integer' : 'a number'} ${exclusiveMin ? '>' : '>='} ${min}${
    integer ? '' : ` and <= ${MAX_TIMER_MS}`
  }`;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new TypeError(`${name} must be ${expectation}, got ${describeValue(value)}`);
  }
  const belowMin = exclusiveMin ? value <= min : value < min;
  const tooBig = integer ? !Number.isSafeInteger(value) : value > MAX_TIMER_MS;
  if (belowMin || tooBig || (integer && !Number.isInteger(value))) {
    throw new RangeError(`${name} must be ${expectation}, got ${describeValue(value)}`);
  }
  return value;
}

/** Throws unless `value` is a boolean. */
export function checkBoolean(name: string, value: unknown): boolean {
  if (typeof value !== 'boolean')
    throw new TypeError(`${name} must be a boolean, got ${describeValue(value)}`);
  return value;
}

/** Throws unless `value` is a non-empty string. */
export function checkNonEmptyString(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`${name} must be a non-empty string, got ${describeValue(value)}`);
  }
  return value;
}

/** True for `{}`-like objects (not arrays, Dates, class instances other than Object). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
