import { CommanderError } from 'commander';
import { describeError, redact } from './describe-error.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import { buildProgram } from './program.js';
import { ScreenGuard } from './render/screen-guard.js';
import { Session } from './session.js';

/**
 * Runs `aqm` with the given arguments (without `node` and the script) and resolves to the exit
 * code; it never calls `process.exit`, so it can run inside a test. Errors are printed to
 * `io.stderr` as one line saying what went wrong and what to do, without the API key. Whatever
 * is printed has its control characters made visible (`\u001b`), so text from the service cannot
 * steer the terminal; `--json` output stays the same JSON.
 * @example
 * ```ts
 * import { runCli } from '@aqm/cli';
 *
 * const code = await runCli(['apps', 'list', '--json'], {
 *   stdout: process.stdout,
 *   stderr: process.stderr,
 *   env: { AQM_API_KEY: key, AQM_BASE_URL: 'http://127.0.0.1:4000/api' },
 * });
 * ```
 */
export async function runCli(argv: readonly string[], given: CliIo): Promise<ExitCode> {
  // Everything printed, by any command, by commander or below, passes the guard.
  const guard = new ScreenGuard();
  const io: CliIo = { ...given, stdout: guard.stream(given.stdout), stderr: guard.stream(given.stderr) };
  const session = new Session(io, guard.csi);
  const program = buildProgram(session);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT_CODES.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has printed its message (or the help/version) already.
      return err.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usageError;
    }
    if (io.signal?.aborted) {
      io.stderr.write('aqm: interrupted.\n');
      return EXIT_CODES.interrupted;
    }
    const report = describeError(err, { baseUrl: session.baseUrl, proxy: session.proxy });
    const [first = '', ...details] = report.lines.map((line) => redact(line, session.secret));
    io.stderr.write(`aqm: ${first}\n`);
    for (const line of details) io.stderr.write(`${line}\n`);
    return report.exitCode;
  } finally {
    await session.close();
  }
}
