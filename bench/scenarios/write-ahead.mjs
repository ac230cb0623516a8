// Write-ahead scenario: what `persistMode: 'write-ahead'` costs per trace against the memory-first
// mode, in the same run. The throughput scenario's burst (and its children), with the variants
// bare (the app alone), ours (no persistDir), ours-disk (persistDir, overflow mode: memory first,
// nothing written while the sink answers) and ours-wal (each trace appended to the log in onEnd()
// and emptied from it once delivered). The sink answers at once, so the figures are the log's own
// cost, not an outage's. The ratios are ours-wal over ours-disk, per produced trace.

import { existingMarkedSection, withMarkedSection } from '../lib/results-section.mjs';
import { throughputScenario } from './throughput.mjs';

export const WRITE_AHEAD_VARIANTS = ['bare', 'ours', 'ours-disk', 'ours-wal'];
export const WRITE_AHEAD_START =
  '<!-- write-ahead: written by `node bench/run.mjs --scenario write-ahead` -->';
export const WRITE_AHEAD_END = '<!-- write-ahead: end -->';

/** The figures compared, as [label, key, unit]. */
const FIGURES = [
  ['CPU per trace (process)', 'cpuUsPerTrace', 'µs'],
  ["CPU per trace on the app's main thread", 'mainCpuUsPerTrace', 'µs'],
  ["time in the app's span calls per trace (onEnd() included)", 'callUsPerTrace', 'µs'],
  ['traces per second (until forceFlush() resolves)', 'tracesPerSec', ''],
  ['event-loop delay p99', 'loopP99Ms', 'ms'],
  ['peak RSS', 'peakRssMiB', 'MiB'],
  ['share delivered', 'deliveredShare', ''],
];

/** Runs the variants interleaved; returns the throughput result and the ratio lines. */
export async function writeAheadScenario(options, log = console.log) {
  const result = await throughputScenario({ ...options, variants: WRITE_AHEAD_VARIANTS }, log);
  const { medians } = result;
  const ratios = {};
  for (const [, key] of FIGURES) ratios[key] = medians['ours-wal'][key] / medians['ours-disk'][key];
  // What the log adds per trace, in absolute terms: ours-wal minus ours-disk.
  const added = {
    cpuUs: medians['ours-wal'].cpuUsPerTrace - medians['ours-disk'].cpuUsPerTrace,
    mainCpuUs: medians['ours-wal'].mainCpuUsPerTrace - medians['ours-disk'].mainCpuUsPerTrace,
    callUs: medians['ours-wal'].callUsPerTrace - medians['ours-disk'].callUsPerTrace,
  };
  log('\nmedians (ours-wal / ours-disk):');
  for (const [label, key, unit] of FIGURES) {
    const cells = WRITE_AHEAD_VARIANTS.map((v) => `${v} ${format(medians[v][key], key)}${unit}`).join('  ');
    log(`  ${label}: ${cells}  ratio ${ratios[key].toFixed(2)}`);
  }
  log(
    `the log adds ${added.cpuUs.toFixed(1)} µs CPU, ${added.mainCpuUs.toFixed(1)} µs on the main thread, ` +
      `${added.callUs.toFixed(1)} µs in span calls per trace`,
  );
  return { ...result, ratios, added };
}

function format(value, key) {
  if (key === 'deliveredShare') return `${(value * 100).toFixed(1)}%`;
  if (key === 'tracesPerSec') return value.toFixed(0);
  return value.toFixed(1);
}

/** The RESULTS.md section of a write-ahead run. */
export function writeAheadSection({ options, medians, ratios, added }, { machine, command, date }) {
  const rows = FIGURES.map(
    ([label, key, unit]) =>
      `| ${label}${unit ? ` (${unit})` : ''} | ${WRITE_AHEAD_VARIANTS.map((v) => format(medians[v][key], key)).join(' | ')} | ${ratios[key].toFixed(2)} |`,
  );
  return [
    WRITE_AHEAD_START,
    '## Write-ahead mode: cost per trace against memory first',
    '',
    `Run on ${date.slice(0, 10)} at ${date.slice(11, 16)} UTC with \`${command}\`, ${machine.cores} cores (${machine.model}), Node ${machine.node}:`,
    `a burst of ${options.traces} traces, ${options.chunk} per event-loop turn, after ${options.warmup} of warm-up, ${options.rounds} rounds interleaved, medians.`,
    '`ours-disk` has a `persistDir` in overflow mode (memory first: nothing is written while the sink answers);',
    "`ours-wal` has `persistMode: 'write-ahead'` (each trace appended to the log inside `onEnd()`, the log emptied as traces are delivered).",
    "Both folders on the machine's temp disk. The sink answers at once: this is the log's own cost, not an outage's.",
    '',
    `| figure | ${WRITE_AHEAD_VARIANTS.join(' | ')} | ours-wal / ours-disk |`,
    `| --- | ${WRITE_AHEAD_VARIANTS.map(() => '---:').join(' | ')} | ---: |`,
    ...rows,
    '',
    `Per trace, the log adds ${added.cpuUs.toFixed(1)} µs of CPU (${added.mainCpuUs.toFixed(1)} µs on the app's main thread) and ${added.callUs.toFixed(1)} µs inside the app's span calls.`,
    '`ours` and `ours-disk` do the same work while the sink answers: the gap between them is the noise of the run.',
    WRITE_AHEAD_END,
  ].join('\n');
}

/** `text` with the write-ahead section replaced, or added before the history. */
export function withWriteAheadSection(text, section) {
  return withMarkedSection(text, section, WRITE_AHEAD_START, WRITE_AHEAD_END);
}

/** The write-ahead section of `text`, if it has one (kept when the other scenarios rewrite the file). */
export function existingWriteAheadSection(text) {
  return existingMarkedSection(text, WRITE_AHEAD_START, WRITE_AHEAD_END);
}
