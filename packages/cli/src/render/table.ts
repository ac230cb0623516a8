import { visibleControls } from '@aqm/wire';
import type { Palette } from './colors.js';
import { displayWidth, truncate } from './text-width.js';

export { truncate };

/** A column of a table: its header, how to read a cell from a row, and how it may be laid out. */
export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** May be cut to fit the width (free text such as descriptions). Ids never are. */
  shrink?: boolean | undefined;
  /** Narrowest a `shrink` column is cut to (at least its header, and 8). */
  minWidth?: number | undefined;
  align?: 'left' | 'right' | undefined;
  /** Styles a cell after it is padded, so styles never count towards the width. */
  style?: ((text: string, row: Row) => string) | undefined;
}

/** Layout options of {@link renderTable}. */
export interface TableOptions {
  /** Fit the table in this many characters by cutting `shrink` columns; no limit when absent. */
  maxWidth?: number | undefined;
  palette?: Palette | undefined;
  /** Draws a line of `-` under each header. */
  rule?: boolean | undefined;
}

const GAP = '  ';
const MIN_SHRUNK_WIDTH = 8;

/**
 * One line per cell, safe for a terminal: tables stay one row per record when a value holds line
 * breaks (each break and the blanks around it become one space), tabs become spaces, and control
 * characters are made visible before widths are measured, so they cannot shift the columns.
 */
function cellText(text: string): string {
  const lines = text.replaceAll('\t', ' ').split(/[\r\n\u2028\u2029]+/);
  const last = lines.length - 1;
  const parts = lines
    .map((line, i) => (i === 0 ? line : line.trimStart()))
    .map((line, i) => (i === last ? line : line.trimEnd()))
    .filter((line, i) => line !== '' || i === 0 || i === last);
  return visibleControls(parts.join(' '));
}

/** Column widths that fit `maxWidth`, narrowing the widest shrinkable column first. */
export function fitWidths(
  natural: number[],
  shrinkable: boolean[],
  floors: number[],
  maxWidth?: number,
): number[] {
  const widths = [...natural];
  if (maxWidth === undefined) return widths;
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP.length * Math.max(0, widths.length - 1);
  while (total() > maxWidth) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      const floor = Math.max(MIN_SHRUNK_WIDTH, floors[i] as number);
      if (
        shrinkable[i] &&
        (widths[i] as number) > floor &&
        (widest < 0 || (widths[i] as number) > (widths[widest] as number))
      ) {
        widest = i;
      }
    }
    if (widest < 0) break; // nothing left to cut: the terminal wraps, ids stay whole
    widths[widest] = (widths[widest] as number) - 1;
  }
  return widths;
}

/**
 * Lays rows out as an aligned table: a header line, then one line per row. Widths are terminal
 * columns (CJK and emoji count two), and every cell has its control characters made visible.
 * With `maxWidth`, `shrink` columns are cut (with `…`) until the table fits; other columns are
 * never cut.
 * @example
 * ```ts
 * renderTable([{ header: 'NAME', value: (r) => r.name }], [{ name: '日本語' }]); // ['NAME', '日本語']
 * ```
 */
export function renderTable<Row>(columns: Column<Row>[], rows: Row[], options: TableOptions = {}): string[] {
  const cells = rows.map((row) => columns.map((column) => cellText(column.value(row))));
  const headers = columns.map((column) => cellText(column.header));
  const last = columns.length - 1;
  // Measured once per cell. The last column is never padded when left-aligned, so without a
  // width to fit its cells need no measuring; a cut column needs measuring only up to the width.
  const unpadded = (i: number) => i === last && columns[i]?.align !== 'right';
  const limit = (i: number) => (columns[i]?.shrink === true ? options.maxWidth : undefined);
  const widthsOf = cells.map((line) =>
    line.map((text, i) =>
      options.maxWidth === undefined && !options.rule && unpadded(i) ? 0 : displayWidth(text, limit(i)),
    ),
  );
  const headerWidths = headers.map((header) => displayWidth(header));
  const natural = headerWidths.map((header, i) =>
    Math.max(header, ...widthsOf.map((line) => line[i] as number)),
  );
  const widths = fitWidths(
    natural,
    columns.map((c) => c.shrink === true),
    columns.map((c, i) => Math.max(headerWidths[i] as number, c.minWidth ?? 0)),
    options.maxWidth,
  );
  const pad = (text: string, measured: number, i: number) => {
    const width = widths[i] as number;
    if (unpadded(i) && measured <= width) return text;
    const cut = measured <= width ? text : truncate(text, width);
    const blank = ' '.repeat(Math.max(0, width - (cut === text ? measured : displayWidth(cut))));
    if (columns[i]?.align === 'right') return `${blank}${cut}`;
    return i === last ? cut : `${cut}${blank}`;
  };
  const bold = options.palette?.bold ?? ((text: string) => text);
  const header = headers.map((text, i) => bold(pad(text, headerWidths[i] as number, i))).join(GAP);
  const rule = options.rule ? [widths.map((width) => '-'.repeat(width)).join(GAP)] : [];
  const body = cells.map((line, r) =>
    line
      .map((text, i) => {
        const padded = pad(text, widthsOf[r]?.[i] as number, i);
        const styler = columns[i]?.style;
        return styler && options.palette?.enabled ? styler(padded, rows[r] as Row) : padded;
      })
      .join(GAP),
  );
  return [header.trimEnd(), ...rule, ...body.map((line) => line.trimEnd())];
}
