import stringWidth from 'string-width';

/**
 * Text is measured in pieces of about this many UTF-16 units: `Intl.Segmenter`, which
 * string-width uses to find characters as the terminal shows them, takes time quadratic in the
 * length of the text it walks on Node 20 (56,000 CJK characters: 1.5 s; Node 22: 60 ms), and
 * table cells hold whole prompts.
 */
const PIECE = 256;
/** How far past {@link PIECE} a piece may run while looking for a place to cut. */
const PIECE_SLACK = 256;

/** A character that starts a new grapheme cluster after anything but a mark or a joiner. */
const STARTS_CLUSTER = /[\p{L}\p{N}\p{P}\p{S}\p{Zs}]/u;
/** ...except these, which join what is before them: Hangul jamo, regional indicators, skin tones. */
const JOINS_PREVIOUS = /[\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\u{1f1e6}-\u{1f1ff}\u{1f3fb}-\u{1f3ff}]/u;
/** A character after which no cut is made: a mark (Indic conjuncts, variation selectors) or ZWJ. */
const HOLDS_NEXT = /\p{M}|\u200d/u;

const WIDTH_OPTIONS = { countAnsiEscapeCodes: true } as const;

/** Whether a grapheme cluster always begins at `index` (approximately: Prepend is not checked). */
function isCut(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code >= 0xdc00 && code <= 0xdfff) return false; // inside a surrogate pair
  if (code >= 0x20 && code <= 0x7e) return !HOLDS_NEXT.test(text[index - 1] as string);
  const here = String.fromCodePoint(text.codePointAt(index) as number);
  if (!STARTS_CLUSTER.test(here) || JOINS_PREVIOUS.test(here)) return false;
  const before = text.codePointAt(index - 1) as number;
  const previous =
    before >= 0xdc00 && before <= 0xdfff && index >= 2
      ? String.fromCodePoint(text.codePointAt(index - 2) as number)
      : String.fromCharCode(before);
  return !HOLDS_NEXT.test(previous);
}

/**
 * The text in pieces of at most about {@link PIECE} + {@link PIECE_SLACK} units, cut between
 * grapheme clusters, so that each can be measured on its own in linear total time. A run with no
 * place to cut (a flood of combining marks) is cut anyway, outside surrogate pairs.
 */
export function* widthPieces(text: string): Generator<string> {
  let start = 0;
  while (text.length - start > PIECE + PIECE_SLACK) {
    let end = start + PIECE;
    const limit = start + PIECE + PIECE_SLACK;
    while (end < limit && !isCut(text, end)) end++;
    if (end === limit) {
      const code = text.charCodeAt(end);
      if (code >= 0xdc00 && code <= 0xdfff) end++;
    }
    yield text.slice(start, end);
    start = end;
  }
  if (start < text.length) yield text.slice(start);
}

/**
 * Pieces of only printable ASCII, Latin-1 letters and the common CJK blocks (one cluster per
 * character, widths 1 and 2 by East Asian Width) are counted directly: string-width's per-cluster
 * rules cost microseconds each, and a whole prompt in Chinese or Korean is common.
 */
const SIMPLE = /^[\u0020-\u007e\u00c0-\u00ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3]*$/;
const WIDE = /[\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3]/g;

function pieceWidth(piece: string): number {
  if (!SIMPLE.test(piece)) return stringWidth(piece, WIDTH_OPTIONS);
  return piece.length + (piece.match(WIDE)?.length ?? 0);
}

/**
 * Columns the text takes on a terminal: CJK and emoji count 2, combining marks and zero-width
 * characters 0 (string-width's rules). Linear in the length of the text; with `limit`, it stops
 * once the width is past it (the result is then more than `limit`, not the whole width).
 * @example
 * ```ts
 * displayWidth('日本語'); // 6
 * ```
 */
export function displayWidth(text: string, limit = Number.POSITIVE_INFINITY): number {
  if (text.length <= PIECE + PIECE_SLACK) return pieceWidth(text);
  let width = 0;
  for (const piece of widthPieces(text)) {
    width += pieceWidth(piece);
    if (width > limit) break;
  }
  return width;
}

const segmenter = new Intl.Segmenter();

/**
 * Cuts text to at most `width` columns, marking the cut with `…`; characters are never split,
 * so the result may be a column narrower than asked when a wide one would not fit.
 * @example
 * ```ts
 * truncate('abcdef', 4); // 'abc…'
 * truncate('日本語テキスト', 6); // '日本…'
 * ```
 */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  const room = width - 1; // for the ellipsis
  let used = 0;
  let position = 0;
  let fits = -1; // where the longest prefix that fits beside the ellipsis ends
  for (const piece of widthPieces(text)) {
    for (const { segment } of segmenter.segment(piece)) {
      const w = stringWidth(segment, WIDTH_OPTIONS);
      if (fits < 0 && used + w > room) fits = position;
      used += w;
      // Stops at the first column too many: a cut costs the length of what is shown, not of the text.
      if (used > width) return `${text.slice(0, fits)}…`;
      position += segment.length;
    }
  }
  return text;
}
