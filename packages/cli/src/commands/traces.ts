import type { EvaluationResult, TraceSummary } from '@aqm/client';
import type { Command } from 'commander';
import { requireDuration, resolveTimeRange, type TimeRangeFlags } from '../durations.js';
import { intInRange, oneOf } from '../flag-parsers.js';
import { addListOptions, addTimeRangeOptions } from '../list-options.js';
import { collectList, type ListFlags } from '../list-paging.js';
import { formatLocalTime } from '../render/local-time.js';
import type { Output } from '../render/output.js';
import type { Session } from '../session.js';
import { tailTraces } from '../tail/trace-tail.js';

function durationMs(t: { startTime: string; endTime: string }): string {
  const ms = new Date(t.endTime).getTime() - new Date(t.startTime).getTime();
  return Number.isFinite(ms) ? `${ms} ms` : '-';
}

function statusColumn(out: Output) {
  return {
    header: 'STATUS',
    value: (t: TraceSummary) => t.status,
    style: (text: string, t: TraceSummary) =>
      t.status === 'success' ? out.palette.green(text) : out.palette.red(text),
  };
}

/** The table of evaluation results, with scores coloured by pass/fail. */
export function printResults(out: Output, results: EvaluationResult[], withTrace: boolean): void {
  out.table(
    [
      ...(withTrace ? [{ header: 'TRACE', value: (r: EvaluationResult) => r.traceId }] : []),
      { header: 'METRIC', value: (r: EvaluationResult) => r.metric },
      {
        header: 'SCORE',
        value: (r: EvaluationResult) => `${r.score.toFixed(2)} ${r.passed ? '✓' : '✗'}`,
        align: 'right' as const,
        style: (text: string, r: EvaluationResult) =>
          r.passed ? out.palette.green(text) : out.palette.red(text),
      },
      {
        header: 'THRESHOLD',
        value: (r: EvaluationResult) => (r.threshold === undefined ? '-' : String(r.threshold)),
      },
      { header: 'TIME', value: (r: EvaluationResult) => formatLocalTime(r.createdAt) },
      { header: 'EXPLANATION', value: (r: EvaluationResult) => r.explanation ?? '', shrink: true },
    ],
    results,
    'No evaluation results.',
  );
}

/** `aqm traces list|get|tail`. */
export function registerTracesCommands(program: Command, session: Session): void {
  const traces = program.command('traces').description('read and follow the traces of an application');

  addTimeRangeOptions(
    addListOptions(
      traces
        .command('list')
        .description('list traces, newest first')
        .argument('<app-id>', 'the application id')
        .option('--status <status>', 'success or error', oneOf(['success', 'error'] as const))
        .option('--search <text>', 'text in the prompt or response'),
    ),
  ).action(
    async (
      appId: string,
      flags: ListFlags & TimeRangeFlags & { status?: 'success' | 'error'; search?: string },
      command: Command,
    ) => {
      const range = resolveTimeRange(flags, session.now());
      const client = session.client(command);
      const out = session.output(command);
      const list = await collectList(flags, async (page, limit) => {
        const result = await client.traces.list(
          appId,
          { ...range, page, limit, status: flags.status, search: flags.search },
          session.requestOptions,
        );
        return { items: result.data, total: result.pagination.total };
      });
      if (out.json) return out.printJson(list.items);
      out.table(
        [
          { header: 'TRACE', value: (t: TraceSummary) => t.traceId },
          { header: 'START', value: (t: TraceSummary) => formatLocalTime(t.startTime) },
          { header: 'DURATION', value: durationMs, align: 'right' as const },
          statusColumn(out),
          { header: 'SPANS', value: (t: TraceSummary) => String(t.spanCount), align: 'right' as const },
          { header: 'PROMPT', value: (t: TraceSummary) => t.prompt, shrink: true },
        ],
        list.items,
        'No traces.',
      );
      if (list.hint) out.note(list.hint);
    },
  );

  traces
    .command('get')
    .description('show a trace with its spans and evaluation results')
    .argument('<app-id>', 'the application id')
    .argument('<trace-id>', 'the trace id (32 hex characters)')
    .action(async (appId: string, traceId: string, _flags: unknown, command: Command) => {
      const trace = await session.client(command).traces.get(appId, traceId, session.requestOptions);
      const out = session.output(command);
      if (out.json) return out.printJson(trace);
      out.fields([
        ['trace', trace.traceId],
        [
          'status',
          trace.status === 'success' ? out.palette.green(trace.status) : out.palette.red(trace.status),
        ],
        ['start', formatLocalTime(trace.startTime)],
        ['duration', durationMs(trace)],
        ['spans', String(trace.spanCount)],
        ['prompt', trace.prompt],
        ['response', trace.response],
      ]);
      if (trace.spans.length > 0) {
        out.line();
        out.table(
          [
            { header: 'SPAN', value: (s: (typeof trace.spans)[number]) => s.spanId },
            { header: 'PARENT', value: (s) => s.parentSpanId ?? '-' },
            { header: 'KIND', value: (s) => s.kind },
            { header: 'STATUS', value: (s) => s.status.code },
            { header: 'DURATION', value: durationMs, align: 'right' },
            { header: 'NAME', value: (s) => s.name, shrink: true },
          ],
          trace.spans,
        );
      }
      out.line();
      printResults(out, trace.evaluationResults ?? [], false);
    });

  traces
    .command('tail')
    .description('follow new traces of an application as they arrive, with scores and guardrail outcomes')
    .argument('<app-id>', 'the application id')
    .option('--interval <duration>', 'time between polls, e.g. 2s or 500ms', '2s')
    .option(
      '--since <when>',
      'also show traces from this time on (default: only traces that arrive from now)',
    )
    .option('--max <n>', 'stop after showing this many traces', intInRange(1, Number.MAX_SAFE_INTEGER))
    .option('--once', 'poll once, show what is new, and stop')
    .action(
      async (
        appId: string,
        flags: { interval: string; since?: string; max?: number; once?: boolean },
        command: Command,
      ) => {
        const intervalMs = requireDuration(flags.interval, '--interval');
        const since =
          flags.since === undefined
            ? undefined
            : resolveTimeRange({ since: flags.since }, session.now()).start;
        await tailTraces({
          client: session.client(command),
          output: session.output(command),
          applicationId: appId,
          intervalMs,
          since,
          max: flags.max,
          once: flags.once === true,
          signal: session.io.signal,
          requestOptions: session.requestOptions,
          now: () => session.now(),
        });
      },
    );
}
