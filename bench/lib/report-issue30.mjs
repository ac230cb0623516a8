// Issue 30's section of bench/RESULTS.md ("Issue 30: three pipelines"), written by bench/issue30.mjs
// from the runs it made: per Node, a table per scenario (ours, the stock pipeline with no loss,
// Langfuse v5 side by side, the ratios), the floor's table, and every goal of issue 30 with its
// verdict. Between two markers, so a full `pnpm bench` keeps it.
import { f0, f1, pct, table } from './markdown.mjs';
import { floorTable, floorVerdict } from './report-floor.mjs';
import { mediansTable } from './report-throughput.mjs';
import { existingMarkedSection, withMarkedSection } from './results-section.mjs';

export const ISSUE30_START = '<!-- issue-30: written by `node bench/issue30.mjs` -->';
export const ISSUE30_END = '<!-- issue-30: end -->';

/** The figures issue 30's goals read, first, then what else tells the pipelines apart. */
const ROWS = [
  ['Process CPU per delivered trace over the bare provider (µs)', 'exporterCpuUsPerDelivered', f1],
  ['Main-thread CPU per delivered trace over the bare provider (µs)', 'exporterMainCpuUsPerDelivered', f1],
  ['Event-loop delay p99 (ms)', 'loopP99Ms', f1],
  ['Share of traces delivered', 'deliveredShare', pct],
  ['Process CPU per trace produced (µs)', 'cpuUsPerTrace', f1],
  ['Main-thread CPU per trace produced (µs)', 'mainCpuUsPerTrace', f1],
  ["Time in the app's span calls per trace (µs)", 'callUsPerTrace', f1],
  ['Bytes on the wire per delivered trace', 'wireBytesPerTrace', f0],
  ['Peak RSS (MiB)', 'peakRssMiB', f0],
];

/**
 * @typedef {{ machine: { cores: number, model: string, node: string }, command: string, date: string,
 *   goals: { goal: string, measured: string, met: boolean, judged?: boolean, informational?: boolean,
 *   issue?: number }[], throughput?: { options: Record<string, any>, medians: Record<string, any> },
 *   steady?: { options: Record<string, any>, medians: Record<string, any> } }} Run
 * @typedef {{ machine: { node: string }, command: string, us: Record<string, number>,
 *   samples: Record<string, number[]>, sizes: Record<string, number>, stock: number }} Floor
 */

/**
 * The section, markers included.
 * @param {{ node: string, runs: Run[], floor?: Floor }[]} perNode
 * @param {{ machine: { cores: number, model: string, memoryGiB: number }, date: string, command: string,
 *   revision: string }} meta
 */
export function issue30Section(perNode, { machine, date, command, revision }) {
  const lines = [
    ISSUE30_START,
    '## Issue 30: three pipelines',
    '',
    `- Machine: ${machine.cores} cores (${machine.model}), ${machine.memoryGiB} GiB`,
    `- Date: ${date}; revision ${revision}`,
    `- Command: \`${command}\` (the runs it made are listed under each Node)`,
    '',
    'Ours beside the stock pipeline that drops nothing (`otlp-noloss`: `BatchSpanProcessor(OTLPTraceExporter)` ' +
      'with its span queue raised) and Langfuse v5 (`langfuse`: `LangfuseSpanProcessor` with its defaults and the ' +
      'same raised queue; it sends the GenAI span only, and a trace counts as delivered when that span arrived), ' +
      'with the stock pipeline with its defaults and the bare provider; in one run per scenario, variants ' +
      'interleaved, medians over the rounds. "Over the bare provider": the variant\'s median minus the bare ' +
      "provider's, divided by the share delivered. The floor: `bench/floor.mjs` (one process, no network).",
    '',
  ];
  const goals = [];
  /** The probes (the least record, the worker thread) against the same goals, for information. */
  const probes = [];
  for (const { node, runs, floor } of perNode) {
    lines.push(`### Node ${node}`, '');
    for (const run of runs) lines.push(`- \`${run.command}\` (${run.date})`);
    if (floor) lines.push(`- \`${floor.command}\` (${floor.date})`);
    lines.push('');
    for (const run of runs) {
      for (const [scenario, label] of [
        ['throughput', (o) => `burst: ${o.traces} traces per run, ${o.chunk} per event-loop turn`],
        ['steady', (o) => `steady rate: ${o.rate} traces/s, ${o.traces} traces per run`],
      ]) {
        const result = run[scenario];
        if (!result) continue;
        const o = result.options;
        lines.push(
          `#### Node ${node}, ${label(o)}, warm-up ${o.warmup}, ${o.rounds} round${o.rounds === 1 ? '' : 's'} (${o.variants.join(', ')})`,
          '',
          ...mediansTable(result.medians, ROWS),
          '',
        );
      }
      for (const goal of run.goals.filter((g) => g.issue === 30 && !g.informational)) {
        goals.push([node, goal.goal, goal.measured, verdict(goal)]);
      }
      for (const goal of run.goals.filter((g) => g.issue === 30 && g.informational)) {
        probes.push([node, goal.goal, goal.measured, verdict(goal)]);
      }
    }
    if (floor) {
      lines.push(
        `#### Node ${node}, floor (${floor.traces} traces, ${floor.rounds} rounds)`,
        '',
        ...floorTable(floor),
        '',
      );
      const floorGoal = floorVerdict(floor.us);
      goals.push([node, floorGoal.goal, floorGoal.measured, verdict(floorGoal)]);
    }
  }
  lines.push(
    '### Issue 30: the goals',
    '',
    ...table(['Node', 'goal', 'measured', 'met?'], ['l', 'l', 'l', 'l'], goals),
    ...(probes.length === 0
      ? []
      : [
          '',
          'The probes against the same goals, for information: whether any implementation could meet them here.',
          '',
          ...table(['Node', 'goal', 'measured', 'would be met?'], ['l', 'l', 'l', 'l'], probes),
        ]),
    ISSUE30_END,
  );
  return lines.join('\n');
}

function verdict(goal) {
  return goal.judged === false ? 'not judged' : goal.met ? 'met' : '**missed**';
}

/** `text` with its issue 30 section replaced by (or, when it has none, given) `section`. */
export function withIssue30Section(text, section) {
  return withMarkedSection(text, section, ISSUE30_START, ISSUE30_END);
}

/** The issue 30 section of `text`, markers included, if it has one. */
export function existingIssue30Section(text) {
  return existingMarkedSection(text, ISSUE30_START, ISSUE30_END);
}
