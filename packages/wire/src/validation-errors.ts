import type { z } from 'zod';
import type { FieldError } from './envelopes.js';

/**
 * Renders a path as the spec's JSON path: keys joined with dots and array indexes in
 * brackets, e.g. `['metrics', 1, 'type']` → `metrics[1].type`. The root is `$`.
 */
export function formatPath(path: ReadonlyArray<PropertyKey>, prefix = ''): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '$' : out;
}

/** Turns zod issues into the spec's `errors[]`, one entry per issue. */
export function toFieldErrors(error: z.ZodError, prefix = ''): FieldError[] {
  return error.issues.flatMap((issue) => {
    // An unrecognized key is reported at its parent; name the key itself.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: formatPath([...issue.path, key], prefix),
        message: 'is not a known field',
      }));
    }
    return [{ path: formatPath(issue.path, prefix), message: issue.message }];
  });
}
