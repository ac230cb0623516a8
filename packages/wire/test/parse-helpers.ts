import { type FieldError, toFieldErrors } from '@aqm/wire';
import type { z } from 'zod';

/** Parses `value` and returns the output; fails the test with the `errors[]` when it is rejected. */
export function accepted<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new Error(`expected the value to be accepted, got ${JSON.stringify(toFieldErrors(result.error))}`);
  }
  return result.data;
}

/** Parses `value` and returns the spec's `errors[]`; fails the test when it is accepted. */
export function rejected(schema: z.ZodType, value: unknown): FieldError[] {
  const result = schema.safeParse(value);
  if (result.success) {
    throw new Error(`expected the value to be rejected, got ${JSON.stringify(result.data)}`);
  }
  return toFieldErrors(result.error);
}
