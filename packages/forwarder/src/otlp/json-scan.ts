import { DECODE_LIMITS, depthError, limitError } from './decode-limits.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/**
 * Checks an OTLP/JSON body's nesting depth and number of values before `JSON.parse` builds them
 * (its work and memory grow with both): throws {@link OtlpDecodeError} 400 past
 * `DECODE_LIMITS.jsonDepth`, 413 past `DECODE_LIMITS.jsonValues`. One pass over the bytes, string
 * contents skipped with `indexOf`; malformed JSON is left for `JSON.parse` to refuse.
 *
 * @example
 * scanJsonBody(body); // then JSON.parse(body.toString('utf8'))
 */
export function scanJsonBody(body: Uint8Array): void {
  const maxDepth = DECODE_LIMITS.jsonDepth;
  const maxValues = DECODE_LIMITS.jsonValues;
  let depth = 0;
  let values = 0;
  for (let i = 0; i < body.length; i += 1) {
    switch (body[i]) {
      case QUOTE:
        i = closingQuote(body, i + 1);
        break;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        depth += 1;
        values += 1;
        if (depth > maxDepth) throw depthError('objects and arrays', 'DECODE_LIMITS.jsonDepth', maxDepth);
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        depth -= 1;
        break;
      case COMMA:
        values += 1;
        break;
      default:
        continue;
    }
    if (values > maxValues) throw limitError('JSON values', 'DECODE_LIMITS.jsonValues', maxValues);
  }
}

/** The index of the quote that ends the string whose contents start at `from` (the end when none). */
function closingQuote(body: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    const quote = body.indexOf(QUOTE, at);
    if (quote === -1) return body.length;
    // Escaped when an odd number of backslashes precede it; each run is counted once (linear).
    let backslashes = 0;
    while (quote - backslashes - 1 >= at && body[quote - backslashes - 1] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}
