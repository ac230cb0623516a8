/** Where `aqm` writes: a stream with the TTY facts that decide colour and truncation. */
export interface CliOutputStream {
  write(chunk: string): unknown;
  /** True when the stream is a terminal: colour and tables sized to `columns`. */
  isTTY?: boolean | undefined;
  /** Width of the terminal in characters, when known. */
  columns?: number | undefined;
}

/** Where `aqm` reads request bodies from when no `--file` is given. */
export interface CliInputStream extends AsyncIterable<string | Buffer> {
  isTTY?: boolean | undefined;
}

/**
 * Everything {@link runCli} touches of its surroundings, so it runs the same in the bin and in a
 * test: output streams, the environment, the clock and an abort signal.
 */
export interface CliIo {
  stdout: CliOutputStream;
  stderr: CliOutputStream;
  /** Read for bodies (`-` or no `--file` with piped input); absent means no input. */
  stdin?: CliInputStream | undefined;
  /** Environment variables (`AQM_API_KEY`, `AQM_BASE_URL`, `NO_COLOR`, `FORCE_COLOR`, `COLUMNS`, `TERM`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Directory relative file paths are resolved against. Default: `process.cwd()`. */
  cwd?: string | undefined;
  /** Aborting it stops the command: `traces tail` ends cleanly (exit 0), others exit 130. */
  signal?: AbortSignal | undefined;
  /** The clock for relative times such as `--since 24h`. Default: `() => new Date()`. */
  now?: (() => Date) | undefined;
}
