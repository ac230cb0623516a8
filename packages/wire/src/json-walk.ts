/** A path into a JSON value: object keys and array indexes. */
export type JsonPath = Array<string | number>;

/** A value to visit: its key in its parent, the parent's visit, and its nesting level. */
interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
  depth: number;
}

/** The path of a visit, built only when asked (copying paths per level was quadratic in depth). */
function pathOf(visit: Visit | undefined, last?: string): JsonPath {
  const path: JsonPath = last === undefined ? [] : [last];
  for (let at = visit; at !== undefined && at.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * Walks a parsed JSON value depth first without recursion (a hostile value may nest thousands
 * of levels), asking `test` about each value and each object key; returns the path of the first
 * one it accepts. `test` gets the nesting level (the root is level 0; a key has its value's level).
 */
function findPath(root: unknown, test: (value: unknown, depth: number, isKey: boolean) => boolean) {
  const stack: Visit[] = [{ value: root, key: undefined, parent: undefined, depth: 0 }];
  while (stack.length > 0) {
    const visit = stack.pop() as Visit;
    const { value, depth } = visit;
    if (test(value, depth, false)) return pathOf(visit);
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) {
        stack.push({ value: value[i], key: i, parent: visit, depth: depth + 1 });
      }
    } else if (typeof value === 'object' && value !== null) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i -= 1) {
        const key = keys[i] as string;
        if (test(key, depth + 1, true)) return pathOf(visit, key);
        stack.push({ value: (value as Record<string, unknown>)[key], key, parent: visit, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/**
 * The path of the first container nested deeper than `maxDepth` levels in `value` (an object
 * or array directly in `value` is level 1), or undefined. The path stops at the first level
 * too deep, so it stays short however deep the value goes.
 */
export function pathNestedDeeperThan(value: unknown, maxDepth: number): JsonPath | undefined {
  return findPath(
    value,
    (item, depth, isKey) => !isKey && depth > maxDepth && typeof item === 'object' && item !== null,
  );
}

/**
 * The path of the first string (value or object key) holding a NUL character (U+0000), or
 * undefined. The store cannot keep NUL (its strings end there), so such a request is refused.
 */
export function pathWithNul(value: unknown): JsonPath | undefined {
  return findPath(value, (item) => typeof item === 'string' && item.includes('\u0000'));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The path of the first object key that code merging the value into another object could turn
 * into a prototype change: `__proto__`, or `constructor` holding an object with a `prototype`
 * (the keys fastify's JSON parser refuses). `JSON.parse` keeps them as plain own keys, so they
 * are found after parsing and refused naming the path.
 */
export function pathWithPrototypeKey(value: unknown): JsonPath | undefined {
  let found: string | undefined;
  const path = findPath(value, (item, _depth, isKey) => {
    if (isKey || !isObject(item) || Array.isArray(item)) return false;
    if (Object.hasOwn(item, '__proto__')) found = '__proto__';
    else if (Object.hasOwn(item, 'constructor')) {
      const held = item.constructor;
      if (isObject(held) && Object.hasOwn(held, 'prototype')) found = 'constructor';
    }
    return found !== undefined;
  });
  return path === undefined || found === undefined ? undefined : [...path, found];
}
