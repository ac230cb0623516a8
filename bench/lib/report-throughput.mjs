// The throughput-style sections of RESULTS.md: the burst ("Throughput") and the steady rate. Both
// are a table of medians (ours, OTLP, the ratios, the bare provider) and every run's figures.
import { f0, f1, f2, pct, table } from './markdown.mjs';

/** The rows of the burst's table: label, key, format. */
const THROUGHPUT_ROWS = [
  ['CPU per trace produced (µs, user+system, app process)', 'cpuUsPerTrace', f1],
  ['— of which the exporter (minus the bare provider, µs)', 'exporterCpuUsPerTrace', f1],
  ['CPU per trace delivered (µs)', 'cpuUsPerDelivered', f1],
  [
    "CPU per trace on the app's main thread (µs, its event loop: span calls, timers, I/O callbacks)",
    'mainCpuUsPerTrace',
    f1,
  ],
  ['— of which the exporter (minus the bare provider, µs)', 'exporterMainCpuUsPerTrace', f1],
  ["— the exporter's main-thread CPU per trace delivered (µs)", 'exporterMainCpuUsPerDelivered', f1],
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

/** The table of medians: ours, OTLP and the ratio, OTLP with no loss and the ratio, the bare provider. */
function mediansTable(medians, rows) {
  const { ours, otlp, bare } = medians;
  const noloss = medians['otlp-noloss'];
  const header = ['figure', 'ours', 'OTLP', 'ratio ours/OTLP'];
  if (noloss) header.push('OTLP, no loss', 'ratio ours/no loss');
  header.push('bare provider');
  const cells = rows.map(([label, key, format]) => [
    label,
    format(ours?.[key]),
    format(otlp?.[key]),
    f2(ours?.[key] / otlp?.[key]),
    ...(noloss ? [format(noloss[key]), f2(ours?.[key] / noloss[key])] : []),
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

export function throughputSection({ options, runs, medians }) {
  return [
    '## Throughput',
    '',
    `${options.traces} traces per run, ${options.chunk} per event-loop turn, after a warm-up of ${options.warmup} through the same provider; ` +
      `${options.rounds} rounds, variants interleaved (${options.variants.join(', ')}, order rotated each round), ` +
      'each in its own child process with its own loopback sink. Medians over the rounds. "OTLP" is ' +
      '`BatchSpanProcessor(OTLPTraceExporter)` with default settings (what users have: it drops spans when its ' +
      '2,048-span queue is full); "OTLP, no loss" has its span queue raised to hold the burst, for a like-for-like ' +
      'comparison of the work per delivered trace.',
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
      'loopback sink. Medians over the rounds; the variants are configured as in the burst.',
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
