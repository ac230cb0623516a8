/** Deeper than any error body the service sends; deeper values are kept as they are. */
const MAX_DEPTH = 8;

/** A character of a token such as an API key: a key is only replaced where it stands whole. */
function isTokenChar(char: string | undefined): boolean {
  return char !== undefined && /[A-Za-z0-9_-]/.test(char);
}

/**
 * `text` with every whole occurrence of `secret` replaced by `[redacted]`. Whole: not glued to
 * letters, digits, `_` or `-` on a side where the secret itself starts or ends with one, so a
 * short key cannot mangle words ("Check" stays whole with the key `k`) while a key in
 * `?key=…&`, quotes or a sentence is caught. Linear in the length of the text for a given key.
 * @example
 * ```ts
 * redactSecretInText('Invalid key sk-1. Check --base-url', 'sk-1'); // 'Invalid key [redacted]. Check --base-url'
 * redactSecretInText('Check --base-url', 'k'); // 'Check --base-url'
 * ```
 */
export function redactSecretInText(text: string, secret: string): string {
  if (secret.length === 0) return text;
  const guardStart = isTokenChar(secret[0]);
  const guardEnd = isTokenChar(secret[secret.length - 1]);
  let out = '';
  let kept = 0;
  let from = 0;
  for (let at = text.indexOf(secret, from); at >= 0; at = text.indexOf(secret, from)) {
    const end = at + secret.length;
    const whole = !(guardStart && isTokenChar(text[at - 1])) && !(guardEnd && isTokenChar(text[end]));
    if (whole) {
      out += `${text.slice(kept, at)}[redacted]`;
      kept = end;
      from = end;
    } else {
      from = at + 1;
    }
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/**
 * `value` with every whole occurrence of `secret` in its strings (at any depth, keys included)
 * replaced by `[redacted]` ({@link redactSecretInText}): a service that echoes the API key in an
 * error body must not put it into an error message, `errors[]` or `body` of ours.
 */
export function redactSecret<T>(value: T, secret: string): T {
  if (secret.length === 0) return value;
  const walk = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') return item.includes(secret) ? redactSecretInText(item, secret) : item;
    if (typeof item !== 'object' || item === null || depth >= MAX_DEPTH) return item;
    if (Array.isArray(item)) return item.map((element) => walk(element, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, element] of Object.entries(item))
      out[walk(key, depth) as string] = walk(element, depth + 1);
    return out;
  };
  return walk(value, 0) as T;
}
