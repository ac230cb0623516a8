import type { CliIo } from '../io.js';
import { createPalette, type Palette, shouldUseColor } from './colors.js';
import { type Column, renderTable } from './table.js';

const DEFAULT_COLUMNS = 80;

/**
 * How a command shows its results: raw JSON with `--json`, otherwise tables and lines styled
 * for a terminal (colour, width) and plain for a pipe (no colour, nothing cut).
 */
export class Output {
  readonly json: boolean;
  readonly palette: Palette;
  /** Terminal width tables are fitted to; `undefined` when stdout is not a terminal. */
  readonly width: number | undefined;
  readonly #io: CliIo;

  /**
   * `csi` is what the palette writes for `ESC[`: the run's screen guard marker, when `io` writes
   * through a screen guard.
   */
  constructor(io: CliIo, options: { json: boolean; color: boolean; csi?: string | undefined }) {
    this.#io = io;
    this.json = options.json;
    this.palette = createPalette(
      !options.json && shouldUseColor(io.env, io.stdout.isTTY, options.color),
      options.csi,
    );
    this.width = io.stdout.isTTY === true ? terminalWidth(io) : undefined;
  }

  /** Writes one line to stdout. */
  line(text = ''): void {
    this.#io.stdout.write(`${text}\n`);
  }

  /** Writes lines to stdout. */
  lines(texts: string[]): void {
    for (const text of texts) this.line(text);
  }

  /** Writes a value as indented JSON: what `--json` prints. */
  printJson(value: unknown): void {
    this.line(JSON.stringify(value, null, 2));
  }

  /** Writes a table fitted to the terminal (not cut on a pipe), or a note when there are no rows. */
  table<Row>(columns: Column<Row>[], rows: Row[], emptyNote = 'Nothing to show.'): void {
    if (rows.length === 0) {
      this.note(emptyNote);
      return;
    }
    this.lines(renderTable(columns, rows, { maxWidth: this.width, palette: this.palette }));
  }

  /** Writes a hint for people to stderr, so stdout stays data for pipes. */
  note(text: string): void {
    this.#io.stderr.write(`${text}\n`);
  }

  /** Writes `key: value` lines with aligned keys, for single records. */
  fields(entries: Array<[string, string]>): void {
    const width = Math.max(0, ...entries.map(([key]) => key.length));
    for (const [key, value] of entries)
      this.line(`${this.palette.bold(`${key}:`.padEnd(width + 1))} ${value}`);
  }
}

function terminalWidth(io: CliIo): number {
  const fromStream = io.stdout.columns;
  if (fromStream !== undefined && fromStream > 0) return fromStream;
  const fromEnv = Number(io.env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_COLUMNS;
}
