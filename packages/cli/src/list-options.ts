import { type Command, Option } from 'commander';
import { intInRange } from './flag-parsers.js';

/** Adds `--limit`, `--page` and `--all`, with the same meaning on every list command. */
export function addListOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--limit <n>',
        'items to show, fetched page after page (default 20; per page with --page)',
      ).argParser(intInRange(1, Number.MAX_SAFE_INTEGER)),
    )
    .addOption(
      new Option('--page <n>', 'show only this page (1-based) of --limit items').argParser(
        intInRange(1, Number.MAX_SAFE_INTEGER),
      ),
    )
    .addOption(new Option('--all', 'fetch every item'));
}

/** Adds `--since` and `--until`: durations before now (30m, 24h, 7d) or ISO 8601 dates. */
export function addTimeRangeOptions(command: Command, sinceDefault?: string): Command {
  const since = sinceDefault === undefined ? '' : ` (default ${sinceDefault})`;
  return command
    .option(
      '--since <when>',
      `start of the range: a duration before now (30m, 24h, 7d) or an ISO date${since}`,
    )
    .option('--until <when>', 'end of the range: a duration before now or an ISO date (default now)');
}
