import type { EvaluationTraceInput } from '@aqm/client';
import type { Command } from 'commander';
import { resolveTimeRange, type TimeRangeFlags } from '../durations.js';
import { addListOptions, addTimeRangeOptions } from '../list-options.js';
import { collectList, type ListFlags } from '../list-paging.js';
import { readBody } from '../read-body.js';
import type { Session } from '../session.js';
import { CliUsageError } from '../usage-error.js';
import { printResults } from './traces.js';

/** The traces of a submission file: `{ "traces": [...] }`, or the array of traces itself. */
export function tracesOfBody(body: unknown): EvaluationTraceInput[] {
  if (Array.isArray(body)) return body as EvaluationTraceInput[];
  if (typeof body === 'object' && body !== null && Array.isArray((body as { traces?: unknown }).traces)) {
    return (body as { traces: EvaluationTraceInput[] }).traces;
  }
  throw new CliUsageError('The file must hold { "traces": [...] } or an array of traces.');
}

/** `aqm evaluations list|submit`. */
export function registerEvaluationsCommands(program: Command, session: Session): void {
  const evaluations = program
    .command('evaluations')
    .description('submit traces for scoring and read the scores');

  addTimeRangeOptions(
    addListOptions(
      evaluations
        .command('list')
        .description('list evaluation results (scores) of an application, newest first')
        .argument('<app-id>', 'the application id')
        .option('--trace <trace-id>', 'only the results of this trace')
        .option('--metric <name>', 'only this metric'),
    ),
  ).action(
    async (
      appId: string,
      flags: ListFlags & TimeRangeFlags & { trace?: string; metric?: string },
      command: Command,
    ) => {
      const range = resolveTimeRange(flags, session.now());
      const client = session.client(command);
      const out = session.output(command);
      const list = await collectList(flags, async (page, limit) => {
        const result = await client.evaluations.list(
          appId,
          { ...range, page, limit, traceId: flags.trace, metric: flags.metric },
          session.requestOptions,
        );
        return { items: result.data, total: result.pagination.total };
      });
      if (out.json) return out.printJson(list.items);
      printResults(out, list.items, true);
      if (list.hint) out.note(list.hint);
    },
  );

  evaluations
    .command('submit')
    .description('submit prompt/response traces for scoring (1 to 100 per call)')
    .argument('<app-id>', 'the application id')
    .requiredOption(
      '-f, --file <path>',
      'JSON or YAML: { "traces": [...] } or an array of traces; - reads stdin',
    )
    .action(async (appId: string, flags: { file: string }, command: Command) => {
      const traces = tracesOfBody(await readBody(flags.file, session.io));
      const result = await session
        .client(command)
        .evaluations.submit(appId, { traces }, session.requestOptions);
      const out = session.output(command);
      if (out.json) return out.printJson(result);
      out.lines(result.traceIds);
      out.note(`Accepted ${result.accepted} trace${result.accepted === 1 ? '' : 's'}.`);
    });
}
