// Turns a run's figures into bench/RESULTS.md: the machine and command first, then a table per
// scenario (ours, OTLP, ratio), the goals, and where the time goes when profiled.
import { existsSync, readFileSync } from 'node:fs';
import { MiB } from './measure.mjs';
import { TEXT_SIZES } from './workload.mjs';

const fixed = (digits) => (value) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const f0 = fixed(0);
const f1 = fixed(1);
const f2 = fixed(2);
const pct = (value) => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : 'n/a');
const mibOf = (bytes) => (Number.isFinite(bytes) ? `${(bytes / MiB).toFixed(1)} MiB` : 'n/a');

/**
 * A Markdown table with its columns padded, as the repository's formatter (Biome) writes them, so a
 * freshly written RESULTS.md passes `pnpm lint`. `align`: 'l' or 'r' per column.
 */
function table(header, align, rows) {
  const all = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, i) => Math.max(3, ...all.map((row) => [...row[i]].length)));
  const pad = (cell, i) => {
    const fill = ' '.repeat(widths[i] - [...cell].length);
    return align[i] === 'r' ? fill + cell : cell + fill;
  };
  const line = (cells) => `| ${cells.map(pad).join(' | ')} |`;
  const rule = widths.map((w, i) => (align[i] === 'r' ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w)));
  return [line(all[0]), `| ${rule.join(' | ')} |`, ...all.slice(1).map(line)];
}

/** The rows of the throughput table: label, key, format, and whether lower is better. */
const THROUGHPUT_ROWS = [
  ['CPU per trace produced (µs, user+system, app process)', 'cpuUsPerTrace', f1],
  ['— of which the exporter (minus the bare provider, µs)', 'exporterCpuUsPerTrace', f1],
  ['CPU per trace delivered (µs)', 'cpuUsPerDelivered', f1],
  ['Traces per second until forceFlush() resolves', 'tracesPerSec', f0],
  ['Bytes on the wire per delivered trace (HTTP request, headers + body)', 'wireBytesPerTrace', f0],
  ['Share of traces delivered', 'deliveredShare', pct],
  ['Event-loop delay p99 while exporting (ms)', 'loopP99Ms', f1],
  ['Event-loop delay max (ms)', 'loopMaxMs', f1],
  ['Peak RSS (MiB)', 'peakRssMiB', f0],
  ['Peak RSS growth over the warmed-up baseline (MiB)', 'growthRssMiB', f0],
];

function throughputSection({ options, runs, medians }) {
  const { ours, otlp, bare } = medians;
  const noloss = medians['otlp-noloss'];
  const lines = [
    '## Throughput',
    '',
    `${options.traces} traces per run, ${options.chunk} per event-loop turn, after a warm-up of ${options.warmup}; ` +
      `${options.rounds} rounds, variants interleaved (${options.variants.join(', ')}, order rotated each round), ` +
      'each in its own child process with its own loopback sink. Medians over the rounds. "OTLP" is ' +
      '`BatchSpanProcessor(OTLPTraceExporter)` with default settings (what users have: it drops spans when its ' +
      '2,048-span queue is full); "OTLP, no loss" has its span queue raised to hold the burst, for a like-for-like ' +
      'comparison of the work per delivered trace.',
    '',
  ];
  const header = ['figure', 'ours', 'OTLP', 'ratio ours/OTLP'];
  if (noloss) header.push('OTLP, no loss', 'ratio ours/no loss');
  header.push('bare provider');
  const rows = THROUGHPUT_ROWS.map(([label, key, format]) => [
    label,
    format(ours?.[key]),
    format(otlp?.[key]),
    f2(ours?.[key] / otlp?.[key]),
    ...(noloss ? [format(noloss[key]), f2(ours?.[key] / noloss[key])] : []),
    format(bare?.[key]),
  ]);
  lines.push(...table(header, ['l', ...header.slice(1).map(() => 'r')], rows));
  lines.push('', '<details><summary>Every run</summary>', '');
  const every = Object.entries(runs).flatMap(([variant, list]) =>
    list.map((run, i) => [
      variant,
      i + 1,
      f1(run.cpuUsPerTrace),
      f0(run.tracesPerSec),
      pct(run.deliveredShare),
      f0(run.wireBytesPerTrace),
      f1(run.loopP99Ms),
      f0(run.peakRssMiB),
    ]),
  );
  const everyHeader = [
    'variant',
    'round',
    'µs/trace',
    'traces/s',
    'delivered',
    'B/trace',
    'loop p99 ms',
    'peak RSS MiB',
  ];
  lines.push(...table(everyHeader, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'], every));
  lines.push('', '</details>', '');
  return lines;
}

function outageSection({ options, runs }) {
  const lines = [
    '## Memory under outage',
    '',
    `The sink answers 503 to every request for ${options.outageSeconds} s while ${options.outageTraces} traces are ` +
      `produced, spread evenly over that time; then it answers 200 again and the app calls forceFlush(). Ours runs ` +
      `with \`maxQueueBytes\` ${options.maxQueueMib} MiB and \`maxQueueTraces\` raised to ${options.outageTraces}, so ` +
      'the byte bound is the one that holds; the OTLP pipeline with its defaults. "Delivered" counts distinct trace ' +
      'ids the sink accepted (complete traces for OTLP).',
    '',
  ];
  const rows = [];
  const row = (label, pick) => rows.push([label, ...runs.map(pick)]);
  row('Peak RSS', (r) => mibOf(r.peakRss));
  row('RSS baseline (warmed up, after gc)', (r) => mibOf(r.baselineRss));
  row('Peak RSS growth over the baseline', (r) => mibOf(r.growthRss));
  row('RSS after the outage, after gc', (r) => mibOf(r.settledAfterProduction));
  row('Bytes held at the end of the outage', (r) => mibOf(r.queuedBytesAtEndOfOutage));
  row('Traces dropped', (r) => String(r.droppedTotal));
  row('Dropped by reason', (r) => (r.droppedByReason ? JSON.stringify(r.droppedByReason) : 'not reported'));
  row('Traces delivered after recovery', (r) => `${r.delivered} (${pct(r.delivered / r.traces)})`);
  row('Sent twice (duplicates at the sink)', (r) => String(r.duplicates));
  row(
    'Recovery: forceFlush() after the sink came back',
    (r) =>
      `${f1(r.recoveryMs / 1000)} s${r.flushError ? ` (rejected: ${r.flushError})` : r.flushed ? '' : ' (timed out)'}`,
  );
  const header = ['figure', ...runs.map((r) => r.variant)];
  lines.push(...table(header, ['l', ...runs.map(() => 'r')], rows), '');
  return lines;
}

function goalsSection(goals) {
  const rows = goals.map((goal) => [goal.goal, goal.measured, goal.met ? 'met' : '**missed**']);
  return ['## Goals', '', ...table(['goal', 'measured', 'met?'], ['l', 'l', 'l'], rows), ''];
}

function profileSection(profiles) {
  const lines = [
    '## Where the time goes',
    '',
    "Self time in the measured window of one extra throughput run per variant (V8's sampling profiler, the one " +
      '`node --cpu-prof` uses, started at the first trace and stopped when forceFlush() resolved; the samples are the ' +
      'JavaScript thread, so time blocked in a system call counts too). Bundled frames are mapped back to their ' +
      'TypeScript source through the source maps. The .cpuprofile files are in `bench/profiles/` (open them in ' +
      'Chrome DevTools).',
    '',
  ];
  for (const [variant, summary] of Object.entries(profiles)) {
    lines.push(`### ${variant}: ${f0(summary.totalMs)} ms sampled`, '');
    lines.push(
      'By package: ' +
        summary.byPackage
          .slice(0, 8)
          .map((p) => `${p.name} ${pct(p.share)}`)
          .join(', '),
      '',
    );
    const rows = summary.functions
      .slice(0, 15)
      .map((fn) => [pct(fn.share), `\`${fn.name}\``, fn.where || '—', fn.pkg]);
    lines.push(...table(['self', 'function', 'where', 'package'], ['r', 'l', 'l', 'l'], rows));
    const ownTop = summary.functions.filter((fn) => fn.pkg === '@aqm/otel').slice(0, 10);
    if (ownTop.length > 0) {
      lines.push(
        '',
        `Top @aqm/otel functions: ${ownTop.map((fn) => `${fn.where} \`${fn.name}\` ${pct(fn.share)}`).join('; ')}.`,
      );
    }
    lines.push('');
  }
  // The hand-written analysis of the profiles, kept across runs (update it when the figures move).
  const analysis = new URL('../where-the-time-goes.md', import.meta.url);
  if (existsSync(analysis)) lines.push(readFileSync(analysis, 'utf8').trim(), '');
  return lines;
}

/**
 * @param {{ machine: object, command: string, date: string, wallSeconds: number, throughput?: object,
 *   outage?: object, profiles?: object, goals: object[], notes: string[] }} run
 */
export function renderResults(run) {
  const m = run.machine;
  const lines = [
    '# Benchmark results',
    '',
    `- Machine: ${m.cores} cores (${m.model}), ${m.memoryGiB} GiB, ${m.platform}`,
    `- Node: ${m.node}`,
    `- Date: ${run.date}; the run took ${f0(run.wallSeconds)} s`,
    `- Command: \`${run.command}\``,
    `- Workload: traces of an HTTP SERVER span \`POST /chat\` and a GenAI CLIENT span \`chat gpt-4o-mini\` (prompt ${TEXT_SIZES.prompt} characters, response ${TEXT_SIZES.response}, as \`gen_ai.input.messages\` / \`gen_ai.output.messages\` JSON), to loopback sinks that answer at once.`,
    '',
    ...run.notes.map((note) => `> ${note}`),
    '',
    ...(run.throughput ? throughputSection(run.throughput) : []),
    ...(run.outage ? outageSection(run.outage) : []),
    ...goalsSection(run.goals),
    ...(run.profiles ? profileSection(run.profiles) : []),
  ];
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
