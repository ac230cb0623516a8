import { Command, Option } from 'commander';
import { registerApplyCommand } from './commands/apply.js';
import { registerAppsCommands } from './commands/apps.js';
import { registerEvaluationsCommands } from './commands/evaluations.js';
import { registerGuardrailsCommands } from './commands/guardrails.js';
import { registerMetricsCommands } from './commands/metrics.js';
import { registerMonitoringCommands } from './commands/monitoring.js';
import { registerSpillCommands } from './commands/spill.js';
import { registerTracesCommands } from './commands/traces.js';
import { registerWidgetsCommands } from './commands/widgets.js';
import type { Session } from './session.js';
import { CLI_VERSION } from './version.js';

const AFTER_HELP = `
Configuration:
  --api-key / AQM_API_KEY     the API key (never printed)
  --base-url / AQM_BASE_URL   the service's base URL, e.g. http://127.0.0.1:4000/api

Exit codes:
  0    success
  1    the service refused the request (400, 401, 404, 409, 429, 5xx) or could not be reached
  2    usage error: unknown command or flag, bad value, invalid input file (nothing was sent)
  130  interrupted (Ctrl-C); traces tail exits 0 on Ctrl-C

Output: tables on a terminal (coloured, fitted to its width); plain on a pipe; --json prints the
raw data. NO_COLOR, FORCE_COLOR and --no-color are honoured. Control characters in the service's
data are shown as \\u escapes (ESC as \\u001b), never sent to the terminal. Input files and stdin
are read up to 10 MiB.`;

/** Commander's message on one line, with what to do: `aqm: error: unknown option '--x'. Add --help for usage.` */
export function oneLineUsageError(text: string): string {
  // Split, not /\s*\n\s*/: that pattern is quadratic on long runs of blanks (the message quotes argv).
  const line = text
    .split('\n')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' ');
  return `aqm: ${line}${/[.!?]$/.test(line) ? '' : '.'} Add --help for usage.\n`;
}

/** Builds the `aqm` command tree; a fresh one per run, so runs share no parser state. */
export function buildProgram(session: Session): Command {
  const program = new Command('aqm')
    .description('The Application Quality Monitoring and Guardrails service from the terminal')
    .version(CLI_VERSION, '-V, --version', 'print the version')
    .addOption(new Option('--api-key <key>', 'API key (default: AQM_API_KEY)'))
    .addOption(new Option('--base-url <url>', 'service base URL (default: AQM_BASE_URL)'))
    .option('--json', 'print the raw data as JSON')
    .option('--no-color', 'no colours, even on a terminal')
    .addHelpText('after', AFTER_HELP)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => session.io.stdout.write(text),
      writeErr: (text) => session.io.stderr.write(text),
      outputError: (text, write) => write(oneLineUsageError(text)),
    });
  registerAppsCommands(program, session);
  registerMonitoringCommands(program, session);
  registerGuardrailsCommands(program, session);
  registerTracesCommands(program, session);
  registerEvaluationsCommands(program, session);
  registerWidgetsCommands(program, session);
  registerMetricsCommands(program, session);
  registerApplyCommand(program, session);
  registerSpillCommands(program, session);
  return program;
}
