import type { Widget, WidgetDataItem } from '@aqm/client';
import type { Command } from 'commander';
import { resolveTimeRange, type TimeRangeFlags } from '../durations.js';
import { collectCsv, oneOf } from '../flag-parsers.js';
import { barChart, sparkline } from '../render/charts.js';
import { formatLocalTime } from '../render/local-time.js';
import type { Output } from '../render/output.js';
import type { Session } from '../session.js';
import { CliUsageError } from '../usage-error.js';

/** A number as charts label it: whole numbers as is, others with up to 3 decimals. */
export function formatChartValue(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000);
}

const BAR_WIDTH_DEFAULT = 40;

/** Draws one widget series: a header with the total, then a sparkline or one bar per bucket. */
export function renderWidgetSeries(
  item: WidgetDataItem,
  chart: 'sparkline' | 'bars',
  width: number | undefined,
): string[] {
  const head = `${item.type}  total ${formatChartValue(item.total)}  (${item.points.length} point${item.points.length === 1 ? '' : 's'})`;
  if (item.points.length === 0) return [head, '  (no data in this range)'];
  const values = item.points.map((p) => p.value);
  if (chart === 'sparkline') {
    const first = item.points[0]?.timestamp as string;
    const last = item.points[item.points.length - 1]?.timestamp as string;
    return [
      head,
      `  ${sparkline(values)}  min ${formatChartValue(Math.min(...values))}  max ${formatChartValue(Math.max(...values))}`,
      `  ${formatLocalTime(first)} → ${formatLocalTime(last)}`,
    ];
  }
  const labelWidth = 19; // YYYY-MM-DD HH:mm:ss
  const barWidth =
    width === undefined
      ? BAR_WIDTH_DEFAULT
      : Math.max(10, Math.min(BAR_WIDTH_DEFAULT, width - labelWidth - 14));
  const bars = barChart(
    item.points.map((p) => ({ label: formatLocalTime(p.timestamp), value: p.value })),
    barWidth,
    formatChartValue,
  );
  return [head, ...bars.map((line) => `  ${line}`)];
}

function printSeries(out: Output, items: WidgetDataItem[], chart: 'sparkline' | 'bars'): void {
  items.forEach((item, i) => {
    if (i > 0) out.line();
    const [head = '', ...rest] = renderWidgetSeries(item, chart, out.width);
    out.line(out.palette.bold(head));
    out.lines(rest.map((line) => (/[▁-█]/.test(line) ? out.palette.cyan(line) : line)));
  });
}

/** `aqm widgets list|data`. */
export function registerWidgetsCommands(program: Command, session: Session): void {
  const widgets = program
    .command('widgets')
    .description('dashboard widget types and their data as terminal charts');

  widgets
    .command('list')
    .description('list the widget types (their ids go in widgets data --types)')
    .action(async (_flags: unknown, command: Command) => {
      const list = await session.client(command).widgets.list(session.requestOptions);
      const out = session.output(command);
      if (out.json) return out.printJson(list);
      out.table(
        [
          { header: 'ID', value: (w: Widget) => w.id },
          { header: 'NAME', value: (w: Widget) => w.name },
          { header: 'DESCRIPTION', value: (w: Widget) => w.description, shrink: true },
        ],
        list,
      );
    });

  widgets
    .command('data')
    .description('chart widget series of an application over a time range')
    .argument('<app-id>', 'the application id')
    .requiredOption('--types <ids>', 'widget ids, comma-separated or repeated (see widgets list)', collectCsv)
    .option('--since <when>', 'start: a duration before now (30m, 24h, 7d) or an ISO date (default 24h)')
    .option('--until <when>', 'end: a duration before now or an ISO date (default now)')
    .option('--chart <kind>', 'sparkline or bars', oneOf(['sparkline', 'bars'] as const), 'sparkline')
    .action(
      async (
        appId: string,
        flags: TimeRangeFlags & { types: string[]; chart: 'sparkline' | 'bars' },
        command: Command,
      ) => {
        if (flags.types.length === 0) throw new CliUsageError('--types needs at least one widget id.');
        const { start, end } = resolveTimeRange(flags, session.now(), '24h');
        const items = await session
          .client(command)
          .widgets.data(
            appId,
            { types: flags.types, start: start as Date, end: end as Date },
            session.requestOptions,
          );
        const out = session.output(command);
        if (out.json) return out.printJson(items);
        printSeries(out, items, flags.chart);
      },
    );
}
