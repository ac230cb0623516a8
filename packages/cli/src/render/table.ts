import type { Palette } from './colors.js';

/** A column of a table: its header, how to read a cell from a row, and how it may be laid out. */
export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** May be cut to fit the width (free text such as descriptions). Ids never are. */
  shrink?: boolean | undefined;
  align?: 'left' | 'right' | undefined;
  /** Styles a cell after it is padded, so styles never count towards the width. */
  style?: ((text: string, row: Row) => string) | undefined;
}

/** Layout options of {@link renderTable}. */
export interface TableOptions {
  /** Fit the table in this many characters by cutting `shrink` columns; no limit when absent. */
  maxWidth?: number | undefined;
  palette?: Palette | undefined;
}

const GAP = '  ';
const MIN_SHRUNK_WIDTH = 8;

/** Cuts text to `width` characters, marking the cut with `…`. */
export function truncate(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return '…'.slice(0, width);
  return `${text.slice(0, width - 1)}…`;
}

/** One line per cell: tables stay one row per record even when a value holds line breaks. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

/** Column widths that fit `maxWidth`, narrowing the widest shrinkable column first. */
export function fitWidths(
  natural: number[],
  shrinkable: boolean[],
  headers: number[],
  maxWidth?: number,
): number[] {
  const widths = [...natural];
  if (maxWidth === undefined) return widths;
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP.length * Math.max(0, widths.length - 1);
  while (total() > maxWidth) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      const floor = Math.max(MIN_SHRUNK_WIDTH, headers[i] as number);
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
 * Lays rows out as an aligned table: a header line, then one line per row. With `maxWidth`,
 * `shrink` columns are cut (with `…`) until the table fits; other columns are never cut.
 */
export function renderTable<Row>(columns: Column<Row>[], rows: Row[], options: TableOptions = {}): string[] {
  const cells = rows.map((row) => columns.map((column) => oneLine(column.value(row))));
  const natural = columns.map((column, i) =>
    Math.max(column.header.length, ...cells.map((line) => (line[i] as string).length)),
  );
  const widths = fitWidths(
    natural,
    columns.map((c) => c.shrink === true),
    columns.map((c) => c.header.length),
    options.maxWidth,
  );
  const pad = (text: string, i: number) => {
    const width = widths[i] as number;
    const cut = truncate(text, width);
    const last = i === columns.length - 1;
    if (columns[i]?.align === 'right') return cut.padStart(width);
    return last ? cut : cut.padEnd(width);
  };
  const bold = options.palette?.bold ?? ((text: string) => text);
  const header = columns.map((column, i) => bold(pad(column.header, i))).join(GAP);
  const body = cells.map((line, r) =>
    line
      .map((text, i) => {
        const padded = pad(text, i);
        const styler = columns[i]?.style;
        return styler && options.palette?.enabled ? styler(padded, rows[r] as Row) : padded;
      })
      .join(GAP),
  );
  return [header.trimEnd(), ...body.map((line) => line.trimEnd())];
}
