// A section of RESULTS.md between two markers (HTML comments): the one bench command that writes
// it replaces only it, and the commands that rewrite the rest of the file keep it.

/**
 * `text` with the section between `startMarker` and `endMarker` replaced by `section` (markers
 * included), or, when `text` has none, `section` added before the history (or at the end).
 * @param {string} text
 * @param {string} section
 * @param {string} startMarker
 * @param {string} endMarker
 */
export function withMarkedSection(text, section, startMarker, endMarker) {
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  if (start !== -1 && end > start)
    return `${text.slice(0, start)}${section}${text.slice(end + endMarker.length)}`;
  const history = text.indexOf('\n## History');
  if (history === -1) return `${text.trimEnd()}\n\n${section}\n`;
  return `${text.slice(0, history)}\n${section}\n${text.slice(history)}`;
}

/**
 * The section of `text` between `startMarker` and `endMarker`, markers included, if it has one.
 * @param {string} text
 * @param {string} startMarker
 * @param {string} endMarker
 */
export function existingMarkedSection(text, startMarker, endMarker) {
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  return start !== -1 && end > start ? text.slice(start, end + endMarker.length) : undefined;
}
