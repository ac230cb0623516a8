/** Maximum nesting kept when serialising arbitrary values (log bodies, tool arguments). */
const MAX_DEPTH = 8;
/** Maximum characters produced by {@link boundedStringify} before it stops descending. */
const MAX_CHARS = 100_000;

/**
 * Parses a string that looks like JSON (`{…}` or `[…]`, also `"…"`); returns `undefined` for
 * anything else or on a parse error. Never throws.
 */
export function parseJsonLoose(text: string): unknown {
  let start = 0;
  while (start < text.length && text.charCodeAt(start) <= 32) start += 1;
  const first = text.charCodeAt(start);
  // '{', '[' or '"': other JSON (numbers, true) is better kept as the text it is.
  if (first !== 123 && first !== 91 && first !== 34) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * `JSON.stringify` that cannot throw or run away: cycles become `"[Circular]"`, depth is bounded,
 * bigints become strings, and output stops growing past a size budget.
 */
export function boundedStringify(value: unknown): string {
  if (typeof value === 'string') return value;
  const seen = new WeakSet<object>();
  let budget = MAX_CHARS;
  const walk = (item: unknown, depth: number): unknown => {
    if (budget <= 0) return '…';
    if (item === null || typeof item === 'number' || typeof item === 'boolean') return item;
    if (typeof item === 'string') {
      budget -= item.length;
      return item;
    }
    if (typeof item === 'bigint') return item.toString();
    if (typeof item !== 'object') return undefined;
    if (seen.has(item)) return '[Circular]';
    if (depth >= MAX_DEPTH) return Array.isArray(item) ? '[Array]' : '[Object]';
    seen.add(item);
    if (item instanceof Uint8Array) return `[${item.byteLength} bytes]`;
    if (Array.isArray(item)) return item.map((element) => walk(element, depth + 1) ?? null);
    if (item instanceof Date) return Number.isNaN(item.getTime()) ? null : item.toISOString();
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(item)) {
      budget -= key.length;
      if (budget <= 0) break;
      const walked = walk((item as Record<string, unknown>)[key], depth + 1);
      if (walked !== undefined) out[key] = walked;
    }
    return out;
  };
  try {
    return JSON.stringify(walk(value, 0)) ?? '';
  } catch {
    return '';
  }
}

/** A plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
