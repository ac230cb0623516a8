/**
 * Making text that came from outside (an LLM app's end users, the service, OTLP senders) safe to
 * print: every character that would steer a terminal instead of showing as text is written as a
 * `\uXXXX` escape, as JSON and JavaScript write it (ESC is `\u001b`). One linear pass each. The
 * characters: C0 controls (ESC starts CSI, OSC 52 clipboard writes, window titles, clear-screen; a
 * lone CR rewrites the line it is on), DEL, C1 controls (U+009B is a one-character CSI, U+009D an
 * OSC), and the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069),
 * which reorder what is shown so that text reads differently from what it is ("Trojan Source").
 * The marks LRM/RLM (U+200E, U+200F) stay: they only nudge neutral characters and right-to-left
 * text needs them.
 */

/** Text that may span lines: tab and line feed stay, and CRLF is a plain line break. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS_BUT_LINE_BREAKS = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** One line: tab and line breaks are escaped too, so a quoted text cannot forge the next line. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Longest line {@link printableLine} prints: an error body quoted in a message can be large. */
const MAX_LINE_CHARS = 1000;

function escaped(match: string): string {
  if (match === '\r\n') return '\n';
  return `\\u${match.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Text with every character that could steer a terminal shown as a `\uXXXX` escape; tab and line
 * breaks are kept. On JSON text the result is still the same JSON, because these characters can
 * only stand inside its strings, where `\uXXXX` means the character itself.
 * @example
 * ```ts
 * visibleControls('a\u001b]52;c;ZXZpbA==\u0007b'); // 'a\\u001b]52;c;ZXZpbA==\\u0007b'
 * ```
 */
export function visibleControls(text: string): string {
  return text.replace(CONTROLS_BUT_LINE_BREAKS, escaped);
}

/**
 * `message` made safe to print as one line of a terminal or log: capped at 1000 characters, and
 * every control character, tab and line breaks included, shown as a `\uXXXX` escape. For messages
 * and names that quote the service or a sender (error bodies, resource and application names).
 * @example
 * ```ts
 * printableLine('bad \u001b[31mred\u001b[0m\nnext'); // 'bad \\u001b[31mred\\u001b[0m\\u000anext'
 * ```
 */
export function printableLine(message: string): string {
  const capped = message.length > MAX_LINE_CHARS ? `${message.slice(0, MAX_LINE_CHARS)}…` : message;
  return capped.replace(LINE_CONTROLS, escaped);
}
