import { InvalidArgumentError } from 'commander';

/** Parses a whole number within bounds, for commander options such as `--limit`. */
export function intInRange(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `must be a whole number >= ${min}.`
          : `must be a whole number from ${min} to ${max}.`,
      );
    }
    return n;
  };
}

/** Collects a repeatable option into an array. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Splits comma-separated values and collects them across repeats: `--types a,b --types c`. */
export function collectCsv(value: string, previous: string[] | undefined): string[] {
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return [...(previous ?? []), ...parts];
}

/** Accepts only one of the given values. */
export function oneOf<T extends string>(values: readonly T[]): (value: string) => T {
  return (value) => {
    if (!(values as readonly string[]).includes(value)) {
      throw new InvalidArgumentError(`must be one of ${values.join(', ')}.`);
    }
    return value as T;
  };
}
