// What bench/compare.mjs prints: per round and, at the end, the medians of each side and head/base.
// `runs` maps `<side>:<variant>` (side 'base' or 'head', variant the one compared or 'bare') to the
// figures of its runs (scenarios/throughput.mjs `runOnce`).
import { median } from './measure.mjs';

/**
 * The figures compared, per run: [label, unit, read(run, bare) where bare is the bare median or
 * undefined, short label for the round lines].
 */
const FIGURES = [
  ['process CPU per delivered trace', 'µs', (run) => run.cpuUsPerTrace / run.deliveredShare, 'process'],
  [
    '  over bare',
    'µs',
    (run, bare) =>
      bare === undefined ? Number.NaN : (run.cpuUsPerTrace - bare.cpuUsPerTrace) / run.deliveredShare,
    'over bare',
  ],
  [
    'main-thread CPU per delivered trace',
    'µs',
    (run) => run.mainCpuUsPerTrace / run.deliveredShare,
    'main thread',
  ],
  [
    '  over bare',
    'µs',
    (run, bare) =>
      bare === undefined ? Number.NaN : (run.mainCpuUsPerTrace - bare.mainCpuUsPerTrace) / run.deliveredShare,
    'over bare',
  ],
  ['time in span calls per trace', 'µs', (run) => run.callUsPerTrace, 'span calls'],
  ['event-loop delay p99', 'ms', (run) => run.loopP99Ms, 'loop p99'],
  ['share delivered', '%', (run) => run.deliveredShare * 100, 'delivered'],
];

/**
 * The bare provider's figures both sides subtract: the median of the bare runs (of either side), of
 * round `round` only when given.
 */
function bareOf(runs, round) {
  const all = [runs['base:bare'] ?? [], runs['head:bare'] ?? []];
  const list = (round === undefined ? all.flat() : all.map((l) => l[round])).filter(Boolean);
  if (list.length === 0) return undefined;
  return {
    cpuUsPerTrace: median(list.map((run) => run.cpuUsPerTrace)),
    mainCpuUsPerTrace: median(list.map((run) => run.mainCpuUsPerTrace)),
  };
}

/** Median over a side's runs of one figure. */
function sideMedian(list, read, bare) {
  return median(list.map((run) => read(run, bare)));
}

const fmt = (value) => (Number.isFinite(value) ? value.toFixed(1) : '-');
const ratio = (head, base) =>
  Number.isFinite(head / base) && base > 0 ? `${(head / base).toFixed(2)}x` : '-';

/** One line after each round: that round's head/base of the main figures. */
export function roundLine(runs, round) {
  const variant = Object.keys(runs)
    .find((key) => key.startsWith('base:') && !key.endsWith(':bare'))
    .slice(5);
  const base = runs[`base:${variant}`][round];
  const head = runs[`head:${variant}`][round];
  const bare = bareOf(runs, round);
  const parts = [0, 1, 2, 3, 4, 5].map((i) => {
    const [, , read, short] = FIGURES[i];
    return `${short} ${ratio(read(head, bare), read(base, bare))}`;
  });
  return `  round ${round + 1} head/base: ${parts.join(', ')}`;
}

/** The table of medians: each side's and head/base, and head − base where the figure is per trace. */
export function comparisonLines(runs, variant) {
  const bare = bareOf(runs);
  const base = runs[`base:${variant}`];
  const head = runs[`head:${variant}`];
  const lines = [
    `${''.padEnd(42)}${'base'.padStart(9)}${'head'.padStart(9)}${'head/base'.padStart(11)}${'head-base'.padStart(11)}`,
  ];
  for (const [label, unit, read] of FIGURES) {
    const b = sideMedian(base, read, bare);
    const h = sideMedian(head, read, bare);
    const diff = unit === '%' ? '' : `${h - b >= 0 ? '+' : ''}${fmt(h - b)} ${unit}`;
    lines.push(
      `${`${label} (${unit})`.padEnd(42)}${fmt(b).padStart(9)}${fmt(h).padStart(9)}${ratio(h, b).padStart(11)}${diff.padStart(11)}`,
    );
  }
  if (bare !== undefined) {
    lines.push(
      `bare provider (median of ${(runs['base:bare'] ?? []).length + (runs['head:bare'] ?? []).length} runs): ` +
        `process ${fmt(bare.cpuUsPerTrace)} µs, main thread ${fmt(bare.mainCpuUsPerTrace)} µs per trace`,
    );
  }
  const short = [...base, ...head].filter((run) => run.deliveredShare < 1).length;
  if (short > 0)
    lines.push(`note: ${short} run(s) delivered less than 100%: the figures per delivered trace differ`);
  return lines;
}

/** The one line to read: head/base of each figure, with the µs per trace head adds over bare. */
export function lastLine(runs, variant) {
  const bare = bareOf(runs);
  const base = runs[`base:${variant}`];
  const head = runs[`head:${variant}`];
  const pair = (i) => {
    const read = FIGURES[i][2];
    const b = sideMedian(base, read, bare);
    const h = sideMedian(head, read, bare);
    return { text: ratio(h, b), diff: `${h - b >= 0 ? '+' : ''}${fmt(h - b)} µs` };
  };
  const [cpu, cpuOver, main, mainOver, calls, loop] = [0, 1, 2, 3, 4, 5].map(pair);
  const over = (p) => (bare === undefined ? '' : ` (over bare ${p.text}, ${p.diff})`);
  return (
    `head/base: process ${cpu.text}${over(cpuOver)}, main thread ${main.text}${over(mainOver)}, ` +
    `span calls ${calls.text} (${calls.diff}), loop p99 ${loop.text}`
  );
}
