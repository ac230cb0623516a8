/** Longest message printed; the rest is cut (an error body quoted in a message can be large). */
const MAX_LINE = 1000;

/**
 * Every character that could steer a terminal or split a log line: all C0 controls (line breaks and
 * tab too: one message stays one line, so a sender cannot forge the next one), DEL, the C1
 * controls (U+009B is a one-character CSI), and the bidirectional embeddings, overrides and
 * isolates (U+202A-U+202E, U+2066-U+2069), which make text read differently from what it is.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `message` made safe to print as one line of a terminal or log: capped at 1000 characters, and
 * every character of {@link LINE_CONTROLS} shown as a `\uXXXX` escape (ESC as `\u001b`). For
 * messages that quote the service or a sender (error bodies, resource and application names).
 *
 * @example
 * printableLine('bad \u001b[31mred\u001b[0m\nnext'); // 'bad \\u001b[31mred\\u001b[0m\\u000anext'
 */
export function printableLine(message: string): string {
  const capped = message.length > MAX_LINE ? `${message.slice(0, MAX_LINE)}…` : message;
  return capped.replace(LINE_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
