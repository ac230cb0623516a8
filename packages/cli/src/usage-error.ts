import { EXIT_CODES, type ExitCode } from './exit-codes.js';

/**
 * A failure the command has already described: a message (what went wrong and what to do),
 * detail lines such as `file:line: message`, and the exit code to end with.
 */
export class CliFailure extends Error {
  override name = 'CliFailure';
  /** Further lines printed under the message, e.g. one per invalid field of a file. */
  readonly lines: readonly string[];
  readonly exitCode: ExitCode;

  constructor(message: string, lines: readonly string[] = [], exitCode: ExitCode = EXIT_CODES.serviceError) {
    super(message);
    this.lines = lines;
    this.exitCode = exitCode;
  }
}

/**
 * A mistake on the command line or in an input file, found before anything was sent: exit code 2.
 */
export class CliUsageError extends CliFailure {
  override name = 'CliUsageError';

  constructor(message: string, lines: readonly string[] = []) {
    super(message, lines, EXIT_CODES.usageError);
  }
}
