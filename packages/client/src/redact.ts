/** Shorter keys are not searched for: they would match ordinary text. */
const MIN_SECRET_CHARS = 6;
/** Deeper than any error body the service sends; deeper values are kept as they are. */
const MAX_DEPTH = 8;

/**
 * `value` with every occurrence of `secret` in its strings (at any depth, keys included) replaced
 * by `[redacted]`: a service that echoes the API key in an error body must not put it into an
 * error message, `errors[]` or `body` of ours.
 */
export function redactSecret<T>(value: T, secret: string): T {
  if (secret.length < MIN_SECRET_CHARS) return value;
  const walk = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') return item.includes(secret) ? item.replaceAll(secret, '[redacted]') : item;
    if (typeof item !== 'object' || item === null || depth >= MAX_DEPTH) return item;
    if (Array.isArray(item)) return item.map((element) => walk(element, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, element] of Object.entries(item))
      out[walk(key, depth) as string] = walk(element, depth + 1);
    return out;
  };
  return walk(value, 0) as T;
}
