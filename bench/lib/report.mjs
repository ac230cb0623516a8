// Turns a run's figures into bench/RESULTS.md: the machine and command first, then a table per
// scenario (ours beside the other pipelines and the ratios; the throughput and steady-rate ones in
// report-throughput.mjs), the
// goals, and where the time goes when profiled.
import { existsSync, readFileSync } from 'node:fs';
import { f0, f1, f2, mibOf, pct, table } from './markdown.mjs';
import { steadySection, throughputSection } from './report-throughput.mjs';
import { TEXT_SIZES } from './workload.mjs';

function outageSection({ options, runs }) {
  const lines = [
    '## Memory under outage',
    '',
    `The sink answers 503 to every request for ${options.outageSeconds} s while ${options.outageTraces} traces are ` +
      `produced, spread evenly over that time; then it answers 200 again and the app calls forceFlush(). Ours runs ` +
      `with \`maxQueueBytes\` ${options.maxQueueMib} MiB and \`maxQueueTraces\` raised to ${options.outageTraces}, so ` +
      'the byte bound is the one that holds; the OTLP pipeline with its defaults. `ours-disk` is ours with a ' +
      '`persistDir` on the temp disk (a fresh folder per run): what memory cannot hold goes to disk and is replayed ' +
      'after recovery, which then lasts until the folder is empty. "Delivered" counts distinct trace ' +
      'ids the sink accepted (complete traces for OTLP).',
    '',
  ];
  const rows = [];
  const row = (label, pick) => rows.push([label, ...runs.map(pick)]);
  row('Peak RSS', (r) => mibOf(r.peakRss));
  row('RSS baseline (warmed up, after gc)', (r) => mibOf(r.baselineRss));
  row('Peak RSS during the outage (before recovery)', (r) => mibOf(r.peakDuringOutage));
  row('Peak RSS growth over the baseline', (r) => mibOf(r.growthRss));
  row('RSS after the outage, after gc', (r) => mibOf(r.settledAfterProduction));
  row('Bytes held at the end of the outage', (r) => mibOf(r.queuedBytesAtEndOfOutage));
  row('Traces dropped', (r) => String(r.droppedTotal));
  row('Dropped by reason', (r) => (r.droppedByReason ? JSON.stringify(r.droppedByReason) : 'not reported'));
  row('Traces delivered after recovery', (r) => `${r.delivered} (${pct(r.delivered / r.traces)})`);
  row('Sent twice (duplicates at the sink)', (r) => String(r.duplicates));
  row('CPU during the outage (user + system)', (r) => `${f2(r.cpuOutageUs / 1e6)} s`);
  row('Event-loop delay p99 during the outage', (r) => `${f1(r.loopP99OutageMs)} ms`);
  row('On disk at the end of the outage', (r) =>
    r.diskTracesAtEndOfOutage === undefined
      ? '-'
      : `${r.diskTracesAtEndOfOutage} traces, ${mibOf(r.diskBytesAtEndOfOutage)} in ${r.diskFilesAtEndOfOutage} files`,
  );
  row('Disk bytes per trace', (r) =>
    r.diskTracesAtEndOfOutage ? f0(r.diskBytesAtEndOfOutage / r.diskTracesAtEndOfOutage) : '-',
  );
  row('Replayed from disk after recovery', (r) =>
    r.replayedTraces === undefined ? '-' : String(r.replayedTraces),
  );
  row('CPU during recovery', (r) => `${f2(r.cpuRecoveryUs / 1e6)} s`);
  row(
    'Recovery: forceFlush() after the sink came back',
    (r) =>
      `${f1(r.recoveryMs / 1000)} s${r.flushError ? ` (rejected: ${r.flushError})` : r.flushed ? '' : ' (timed out)'}`,
  );
  const header = ['figure', ...runs.map((r) => r.variant)];
  lines.push(...table(header, ['l', ...runs.map(() => 'r')], rows), '');
  return lines;
}

export function goalsSection(goals) {
  // An informational line (the steady rate) is not one of the issue's goals: not missed in bold.
  const verdict = (goal) =>
    goal.judged === false
      ? 'not judged'
      : goal.met
        ? 'met'
        : goal.informational
          ? 'missed (for information)'
          : '**missed**';
  const rows = goals.map((goal) => [goal.goal, goal.measured, verdict(goal)]);
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
 *   steady?: object, outage?: object, profiles?: object, goals: object[], notes: string[] }} run
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
    ...(run.steady ? steadySection(run.steady) : []),
    ...(run.outage ? outageSection(run.outage) : []),
    ...goalsSection(run.goals),
    ...(run.profiles ? profileSection(run.profiles) : []),
  ];
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
