import { inspect } from 'node:util';

/** A short, printable rendering of a bad option value for error messages. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return inspect(value, {
    depth: 1,
    breakLength: Number.POSITIVE_INFINITY,
    maxArrayLength: 5,
    maxStringLength: 60,
  });
}
