/**
 * Characters that steer a terminal instead of showing as text, matched in one linear pass:
 * C0 controls but tab and line feed (ESC starts CSI, OSC 52 clipboard writes, window titles,
 * clear-screen; a lone CR rewrites the line it is on), DEL, C1 controls (U+009B is a one-character
 * CSI, U+009D an OSC), and the bidirectional embeddings, overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069), which reorder what is shown so that text reads differently from what it is
 * ("Trojan Source"). CRLF is a plain line break. The marks LRM/RLM (U+200E, U+200F) stay: they
 * only nudge neutral characters and right-to-left text needs them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const TERMINAL_CONTROLS = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(match: string): string {
  if (match === '\r\n') return '\n';
  return `\\u${match.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Text with every character that could steer a terminal shown as a `\uXXXX` escape, as JSON and
 * JavaScript write it (ESC is `\u001b`); tab and line breaks are kept. Applied to everything
 * `aqm` prints: prompts, responses and every other string come from an LLM app's end users. On
 * JSON text the result is still the same JSON, because these characters can only stand inside
 * its strings, where `\uXXXX` means the character itself.
 * @example
 * ```ts
 * visibleControls('a\u001b]52;c;ZXZpbA==\u0007b'); // 'a\\u001b]52;c;ZXZpbA==\\u0007b'
 * ```
 */
export function visibleControls(text: string): string {
  return text.replace(TERMINAL_CONTROLS, visible);
}
