// The floor's figures (`node bench/floor.mjs`) as Markdown: the stage table and issue 30's verdict,
// ours within 1.5x the least record. `--results` writes them as a section of RESULTS.md between two
// markers, which a full `pnpm bench` keeps; bench/issue30.mjs puts one table per Node in its own.
import { f1, f2, table } from './markdown.mjs';
import { existingMarkedSection, withMarkedSection } from './results-section.mjs';

export const FLOOR_START = '<!-- floor: written by `node bench/floor.mjs --results` -->';
export const FLOOR_END = '<!-- floor: end -->';

/** Issue 30: ours' pipeline at most this many times the least record. */
export const TO_LEAST_RECORD = 1.5;

/**
 * Issue 30's verdict from the medians: ours (`ours` stage) against the least record (`least-record`).
 * @param {Record<string, number>} us medians, µs per trace, by stage
 */
export function floorVerdict(us) {
  const ratio = us.ours / us['least-record'];
  return {
    goal: `ours within ${TO_LEAST_RECORD}x the least record (bench/floor.mjs)`,
    measured: `ours ${f1(us.ours)} µs vs least-record ${f1(us['least-record'])} µs per trace, ${f2(ratio)}x`,
    met: ratio <= TO_LEAST_RECORD,
  };
}

/**
 * The stage table (medians, spread, bytes, share of the stock pipeline's work) and the verdict line.
 * @param {{ us: Record<string, number>, samples: Record<string, number[]>, sizes: Record<string, number>,
 *   stock: number }} floor
 */
export function floorTable({ us, samples, sizes, stock }) {
  const rows = Object.keys(us).map((name) => [
    name,
    f1(us[name]),
    `${f1(Math.min(...samples[name]))}-${f1(Math.max(...samples[name]))}`,
    sizes[name] > 0 ? String(sizes[name]) : '–',
    f2(us[name] / stock),
  ]);
  const verdict = floorVerdict(us);
  return [
    ...table(
      ['stage', 'µs per trace (median)', 'min-max', 'bytes per trace', '÷ stock'],
      ['l', 'r', 'r', 'r', 'r'],
      rows,
    ),
    '',
    `Stock (batch-processor + otlp-serialise): ${f1(stock)} µs per trace.`,
    '',
    `Issue 30, ${verdict.goal}: ${verdict.measured}: **${verdict.met ? 'met' : 'missed'}**.`,
  ];
}

/**
 * The Floor section of RESULTS.md, markers included.
 * @param {{ traces: number, rounds: number, us: Record<string, number>, samples: Record<string, number[]>,
 *   sizes: Record<string, number>, stock: number }} floor
 * @param {{ machine: { cores: number, model: string, node: string }, command: string, date: string }} run
 */
export function floorSection(floor, { machine, command, date }) {
  return [
    FLOOR_START,
    '## Floor',
    '',
    `- Machine: ${machine.cores} cores (${machine.model}); Node ${machine.node}; ${date}`,
    `- Command: \`${command}\``,
    '',
    `The process's CPU per trace of each stage over the same ${floor.traces} ended traces, in one process, no ` +
      `network, warm; ${floor.rounds} rounds, stages rotated each round, medians (the stages: ` +
      '`bench/lib/floor-stages.mjs`). `ours` is `TracePipeline` as shipped with a client that accepts at once; ' +
      '`least-record` the least a record of the contract can cost; "÷ stock" divides by the stock pipeline\'s ' +
      'work (`batch-processor` + `otlp-serialise`).',
    '',
    ...floorTable(floor),
    FLOOR_END,
  ].join('\n');
}

/** `text` with its Floor section replaced by (or, when it has none, given) `section`. */
export function withFloorSection(text, section) {
  return withMarkedSection(text, section, FLOOR_START, FLOOR_END);
}

/** The Floor section of `text`, markers included, if it has one. */
export function existingFloorSection(text) {
  return existingMarkedSection(text, FLOOR_START, FLOOR_END);
}
