// Plain-text tables for the demo's report, drawn by the CLI's own table renderer (@aqm/cli):
// widths in terminal columns (CJK and emoji count two), flexible columns (long texts) shrink first
// and are cut with an ellipsis, and control characters in the service's data are made visible.
// Colour is applied after padding, so it never disturbs the alignment, and only when asked for.
import {
  createPalette,
  renderTable as renderCliTable,
  truncate as truncateCli,
  visibleControls,
} from '@aqm/cli';

/**
 * @typedef {object} Column
 * @property {string} header
 * @property {'left' | 'right'} [align] Default `left`.
 * @property {boolean} [flex] Whether the column may shrink (and its cells be cut) to fit the width.
 * @property {number} [minWidth] Narrowest a flexible column gets; default 12.
 */

/** @typedef {'good' | 'bad' | 'dim' | 'bold'} Tone */
/** @typedef {string | { text: string, tone?: Tone }} Cell */

const TONE_STYLES = { good: 'green', bad: 'red', dim: 'dim', bold: 'bold' };

/**
 * A text on one line, made safe for a terminal and cut to `max` columns, the last one replaced
 * by an ellipsis when it was cut.
 *
 * @param {string} text
 * @param {number} max
 * @returns {string}
 * @example
 * truncate('abcdef', 4); // 'abc…'
 */
export function truncate(text, max) {
  return truncateCli(visibleControls(text), max);
}

/**
 * Renders a table as lines of plain text: a header line, a rule, then one line per row.
 *
 * @param {{ columns: Column[], rows: Cell[][], maxWidth: number, color: boolean }} table
 * @returns {string}
 * @example
 * renderTable({ columns: [{ header: 'name' }, { header: 'n', align: 'right' }], rows: [['a', '1']], maxWidth: 80, color: false });
 */
export function renderTable({ columns, rows, maxWidth, color }) {
  const palette = createPalette(color);
  const cellOf = (row, i) => row[i] ?? '';
  const lines = renderCliTable(
    columns.map((column, i) => ({
      header: column.header,
      value: (row) => {
        const cell = cellOf(row, i);
        return typeof cell === 'string' ? cell : cell.text;
      },
      align: column.align,
      shrink: column.flex === true,
      minWidth: column.minWidth ?? 12,
      style: (text, row) => {
        const cell = cellOf(row, i);
        const tone = typeof cell === 'string' ? undefined : cell.tone;
        return tone === undefined ? text : palette[TONE_STYLES[tone]](text);
      },
    })),
    rows,
    { maxWidth, palette, rule: true },
  );
  return lines.join('\n');
}

/**
 * A heading line for a section of the report.
 *
 * @param {string} title
 * @param {boolean} color
 * @returns {string}
 * @example
 * console.log(heading('Traces', false)); // '\n== Traces =='
 */
export function heading(title, color) {
  const text = `== ${title} ==`;
  return `\n${createPalette(color).bold(text)}`;
}

/**
 * Text on one line: runs of white space (line breaks too) become one space.
 *
 * @param {string} value
 * @returns {string}
 * @example
 * oneLine('a\n b'); // 'a b'
 */
export function oneLine(value) {
  return value.replace(/\s+/g, ' ').trim();
}
