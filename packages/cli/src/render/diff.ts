import type { Palette } from './colors.js';

/** One difference between what the service holds and what is wanted. */
export interface Change {
  /** Where, as an `errors[].path`-style path: `monitoring.metrics[1].threshold`. */
  path: string;
  kind: 'add' | 'remove' | 'change';
  before?: unknown;
  after?: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/**
 * The differences between two JSON values, as paths: objects are compared key by key, arrays
 * index by index (extra items are added or removed), anything else by value.
 * @example
 * ```ts
 * diffValues({ metrics: [{ type: 'a', threshold: 0.5 }] }, { metrics: [{ type: 'a', threshold: 0.7 }] });
 * // [{ path: 'metrics[0].threshold', kind: 'change', before: 0.5, after: 0.7 }]
 * ```
 */
export function diffValues(before: unknown, after: unknown, path = ''): Change[] {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => {
      const p = join(path, key);
      if (!(key in after) || after[key] === undefined) {
        return before[key] === undefined ? [] : [{ path: p, kind: 'remove' as const, before: before[key] }];
      }
      if (!(key in before) || before[key] === undefined)
        return [{ path: p, kind: 'add' as const, after: after[key] }];
      return diffValues(before[key], after[key], p);
    });
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const changes: Change[] = [];
    const length = Math.max(before.length, after.length);
    for (let i = 0; i < length; i++) {
      const p = join(path, i);
      if (i >= after.length) changes.push({ path: p, kind: 'remove', before: before[i] });
      else if (i >= before.length) changes.push({ path: p, kind: 'add', after: after[i] });
      else changes.push(...diffValues(before[i], after[i], p));
    }
    return changes;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [{ path: path === '' ? '$' : path, kind: 'change', before, after }];
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** Renders changes as `+ path: value`, `- path: value`, `~ path: before → after`, coloured on a terminal. */
export function renderChanges(changes: Change[], palette: Palette): string[] {
  return changes.map((change) => {
    if (change.kind === 'add') return palette.green(`+ ${change.path}: ${show(change.after)}`);
    if (change.kind === 'remove') return palette.red(`- ${change.path}: ${show(change.before)}`);
    return palette.yellow(`~ ${change.path}: ${show(change.before)} → ${show(change.after)}`);
  });
}
