// Plain-text tables with aligned columns that fit a given width: flexible columns (long texts)
// shrink first and their cells are cut with an ellipsis. Colour is applied after padding, so it
// never disturbs the alignment, and only when the caller asks for it.

const GAP = '  ';
const ELLIPSIS = '…';
const TONES = { good: '\x1b[32m', bad: '\x1b[31m', dim: '\x1b[2m', bold: '\x1b[1m' };
const RESET = '\x1b[0m';

/**
 * @typedef {object} Column
 * @property {string} header
 * @property {'left' | 'right'} [align] Default `left`.
 * @property {boolean} [flex] Whether the column may shrink (and its cells be cut) to fit the width.
 * @property {number} [minWidth] Narrowest a flexible column gets; default 12.
 */

/** @typedef {string | { text: string, tone?: keyof typeof TONES }} Cell */

/** Length in code points, which is what a terminal shows for the texts of these tables. */
function width(text) {
  return [...text].length;
}

/**
 * A text cut to `max` code points, the last one replaced by an ellipsis when it was cut.
 *
 * @param {string} text
 * @param {number} max
 * @returns {string}
 * @example
 * truncate('abcdef', 4); // 'abc…'
 */
export function truncate(text, max) {
  const chars = [...text];
  if (chars.length <= max) return text;
  return max <= 0 ? '' : `${chars.slice(0, max - 1).join('')}${ELLIPSIS}`;
}

/** The column widths: natural ones, then the widest flexible column narrowed until all fit. */
function fitWidths(columns, natural, maxWidth) {
  const widths = [...natural];
  const total = () => widths.reduce((sum, w) => sum + w, 0) + GAP.length * (widths.length - 1);
  while (total() > maxWidth) {
    let widest = -1;
    columns.forEach((column, i) => {
      const min = column.minWidth ?? 12;
      if (column.flex && widths[i] > min && (widest === -1 || widths[i] > widths[widest])) widest = i;
    });
    if (widest === -1) break; // nothing left to shrink: the line will be longer than the width
    widths[widest] -= 1;
  }
  return widths;
}

/**
 * Renders a table as lines of plain text.
 *
 * @param {{ columns: Column[], rows: Cell[][], maxWidth: number, color: boolean }} table
 * @returns {string}
 * @example
 * renderTable({ columns: [{ header: 'name' }, { header: 'n', align: 'right' }], rows: [['a', '1']], maxWidth: 80, color: false });
 */
export function renderTable({ columns, rows, maxWidth, color }) {
  const text = (cell) => oneLine(typeof cell === 'string' ? cell : cell.text);
  const natural = columns.map((column, i) =>
    Math.max(width(column.header), ...rows.map((row) => width(text(row[i] ?? '')))),
  );
  const widths = fitWidths(columns, natural, maxWidth);
  const paint = (value, tone) => (color && tone ? `${TONES[tone]}${value}${RESET}` : value);
  const line = (cells, toneOf) =>
    cells
      .map((cell, i) => {
        const cut = truncate(text(cell ?? ''), widths[i]);
        const pad = ' '.repeat(widths[i] - width(cut));
        const right = columns[i].align === 'right';
        // No trailing blanks: the last column is not padded on the right.
        const padded = right ? `${pad}${cut}` : i === cells.length - 1 ? cut : `${cut}${pad}`;
        return paint(padded, toneOf(cell));
      })
      .join(GAP);
  return [
    line(
      columns.map((column) => column.header),
      () => 'bold',
    ),
    widths.map((w) => '-'.repeat(w)).join(GAP),
    ...rows.map((row) => line(row, (cell) => (typeof cell === 'string' ? undefined : cell?.tone))),
  ].join('\n');
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
  return `\n${color ? `${TONES.bold}${text}${RESET}` : text}`;
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
