// The throughput-style sections of RESULTS.md: the burst ("Throughput") and the steady rate. Both
// are a table of medians (ours, the stock pipeline with no loss, Langfuse v5, the stock pipeline with
// its defaults, the ratios ours/each, the bare provider) and every run's figures.
import { f0, f1, f2, pct, table } from './markdown.mjs';

/** The rows of the burst's table: label, key, format. */
const THROUGHPUT_ROWS = [
  ['CPU per trace produced (µs, user+system, app process)', 'cpuUsPerTrace', f1],
  ['— of which the exporter (minus the bare provider, µs)', 'exporterCpuUsPerTrace', f1],
  [
    "— the exporter's CPU per trace delivered (minus the bare provider, ÷ share delivered, µs)",
    'exporterCpuUsPerDelivered',
    f1,
  ],
  ['CPU per trace delivered (µs)', 'cpuUsPerDelivered', f1],
  [
    "CPU per trace on the app's main thread (µs, its event loop: span calls, timers, I/O callbacks)",
    'mainCpuUsPerTrace',
    f1,
  ],
  ['— of which the exporter (minus the bare provider, µs)', 'exporterMainCpuUsPerTrace', f1],
  [
    "— the exporter's main-thread CPU per trace delivered (minus the bare provider, ÷ share delivered, µs)",
    'exporterMainCpuUsPerDelivered',
    f1,
  ],
  ['Event loop busy per trace (µs, eventLoopUtilization().active)', 'loopActiveUsPerTrace', f1],
  ["Time in the app's span calls per trace (µs, wall: starting and ending its spans)", 'callUsPerTrace', f1],
  ['Traces per second until forceFlush() resolves', 'tracesPerSec', f0],
  ['Bytes on the wire per delivered trace (HTTP request, headers + body)', 'wireBytesPerTrace', f0],
  ['Share of traces delivered', 'deliveredShare', pct],
  ['Event-loop delay p99 while exporting (ms)', 'loopP99Ms', f1],
  ['Event-loop delay max (ms)', 'loopMaxMs', f1],
  ['Peak RSS (MiB)', 'peakRssMiB', f0],
  ['Peak RSS growth over the warmed-up baseline (MiB)', 'growthRssMiB', f0],
];

/** The steady rate's rows: the same, with the rate the traces were produced at and the requests. */
const steadyRows = (rate) => [
  ...THROUGHPUT_ROWS.map((row) =>
    row[1] === 'tracesPerSec'
      ? [`Traces per second produced (the schedule: ${rate})`, 'producedPerSec', f0]
      : row,
  ),
  ['HTTP requests to the sink', 'requests', f0],
];

/**
 * The pipelines the medians table shows beside ours, in its order (issue 30): the stock pipeline
 * that drops nothing and Langfuse v5 side by side with ours, each with the ratio ours/it, then the
 * stock pipeline with its defaults (and the ratio) and the bare provider. A variant that did not
 * run has no column.
 */
const COMPARED = [
  ['otlp-noloss', 'OTLP, no loss', 'ratio ours/no loss'],
  ['langfuse', 'Langfuse v5', 'ratio ours/Langfuse'],
  ['otlp', 'OTLP (defaults)', 'ratio ours/OTLP'],
  // Probes, when they ran (bench/lib/variants.mjs).
  ['langfuse-all', 'Langfuse v5, every span (probe)', 'ratio ours/it'],
  ['least', 'least record (probe)', 'ratio ours/least'],
  ['least-content-once', 'least, content once (probe)', 'ratio ours/it'],
];

/**
 * The table of medians: ours, each compared pipeline that ran with the ratio ours/it, the bare
 * provider. `rows`: [label, key, format].
 * @param {Record<string, Record<string, number>>} medians
 * @param {[string, string, (value: number) => string][]} rows
 */
export function mediansTable(medians, rows) {
  const { ours, bare } = medians;
  const compared = COMPARED.filter(([variant]) => medians[variant]);
  const header = ['figure', 'ours', ...compared.flatMap(([, name, ratio]) => [name, ratio]), 'bare provider'];
  const cells = rows.map(([label, key, format]) => [
    label,
    format(ours?.[key]),
    ...compared.flatMap(([variant]) => [
      format(medians[variant][key]),
      f2(ours?.[key] / medians[variant][key]),
    ]),
    format(bare?.[key]),
  ]);
  return table(header, ['l', ...header.slice(1).map(() => 'r')], cells);
}

/** Every run's figures, folded away. `columns`: [header, format of a run]. */
function everyRunTable(runs, columns) {
  const rows = Object.entries(runs).flatMap(([variant, list]) =>
    list.map((run, i) => [variant, i + 1, ...columns.map(([, format]) => format(run))]),
  );
  const header = ['variant', 'round', ...columns.map(([name]) => name)];
  return [
    '<details><summary>Every run</summary>',
    '',
    ...table(header, ['l', ...header.slice(1).map(() => 'r')], rows),
    '',
    '</details>',
  ];
}

const RUN_COLUMNS = [
  ['µs/trace', (run) => f1(run.cpuUsPerTrace)],
  ['main thread µs/trace', (run) => f1(run.mainCpuUsPerTrace)],
  ['span calls µs/trace', (run) => f1(run.callUsPerTrace)],
  ['traces/s', (run) => f0(run.tracesPerSec)],
  ['delivered', (run) => pct(run.deliveredShare)],
  ['B/trace', (run) => f0(run.wireBytesPerTrace)],
  ['loop p99 ms', (run) => f1(run.loopP99Ms)],
  ['peak RSS MiB', (run) => f0(run.peakRssMiB)],
];

const STEADY_RUN_COLUMNS = [
  ...RUN_COLUMNS.map((column) =>
    column[0] === 'traces/s' ? ['produced/s', (run) => f0(run.producedPerSec)] : column,
  ),
  ['requests', (run) => f0(run.requests)],
];

/** What the columns of the medians table are (both sections). */
const PIPELINES =
  '"OTLP, no loss" is `BatchSpanProcessor(OTLPTraceExporter)` with its span queue raised to hold the burst ' +
  '(the stock pipeline, dropping nothing: the like-for-like comparison of the work per delivered trace); ' +
  '"Langfuse v5" is `LangfuseSpanProcessor` from `@langfuse/otel` with its defaults and the same raised queue ' +
  '(what a user would install instead; it sends the GenAI span only, and a trace counts as delivered when that ' +
  'span arrived); "OTLP (defaults)" is the stock pipeline with default settings (what users have: it drops ' +
  'spans when its 2,048-span queue is full). "Minus the bare provider" subtracts the median of the provider ' +
  'with no processor (the app making its spans); "÷ share delivered" divides by the share of traces that arrived.';

export function throughputSection({ options, runs, medians }) {
  return [
    '## Throughput',
    '',
    `${options.traces} traces per run, ${options.chunk} per event-loop turn, after a warm-up of ${options.warmup} through the same provider; ` +
      `${options.rounds} rounds, variants interleaved (${options.variants.join(', ')}, order rotated each round), ` +
      'each in its own child process with its own loopback sink. Medians over the rounds. ' +
      PIPELINES,
    '',
    ...mediansTable(medians, THROUGHPUT_ROWS),
    '',
    ...everyRunTable(runs, RUN_COLUMNS),
    '',
  ];
}

export function steadySection({ options, runs, medians }) {
  const lines = [
    '## Steady rate',
    '',
    'In the burst the OTLP pipeline with its defaults drops spans, so its CPU per trace pays for less work; at a ' +
      'rate every variant keeps up with, every variant delivers everything, and the CPU per trace compares the ' +
      'work each does for the same delivered traces.',
    '',
    `${options.traces} traces per run at **${options.rate} traces per second** (every 10 ms the child ends the ` +
      `traces due by then, counted from the elapsed time), after a warm-up of ${options.warmup} at the same rate through the same provider; the window ` +
      `runs from the first trace until forceFlush() resolves. ${options.rounds} rounds, variants interleaved ` +
      `(${options.variants.join(', ')}, order rotated each round), each in its own child process with its own ` +
      `loopback sink. Medians over the rounds; the variants are configured as in the burst. ${PIPELINES}`,
    '',
  ];
  const short = Object.entries(runs).filter(
    ([variant, list]) => variant !== 'bare' && list.some((run) => run.deliveredShare < 1),
  );
  if (short.length > 0) {
    lines.push(
      `> Not every variant kept up at this rate (${short.map(([variant]) => variant).join(', ')} delivered less ` +
        'than 100% in some round): the CPU per trace does not compare the same work; try a lower `--rate`.',
      '',
    );
  }
  lines.push(...mediansTable(medians, steadyRows(options.rate)), '');
  lines.push(...everyRunTable(runs, STEADY_RUN_COLUMNS), '');
  return lines;
}
