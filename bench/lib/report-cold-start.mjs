// The cold-start section of bench/RESULTS.md, between two markers like the forwarder's, so that
// `node bench/cold-start.mjs` replaces only it and a full `pnpm bench` keeps it.
import { f0, f2, table } from './markdown.mjs';
import { existingMarkedSection, withMarkedSection } from './results-section.mjs';

export const COLD_START_START = '<!-- cold-start: written by `node bench/cold-start.mjs` -->';
export const COLD_START_END = '<!-- cold-start: end -->';
/** What follows this line inside the section (before/after notes, written by hand) is kept on rewrite. */
export const COLD_START_NOTES =
  '<!-- cold-start: notes written by hand, kept by `node bench/cold-start.mjs` -->';

const STAGES = [
  ['imported', 'import'],
  ['importCpu', 'import, CPU of the main thread'],
  ['spanEnded', 'import + set up + first span ended'],
  ['delivered', 'import + set up + first trace delivered'],
];

/**
 * @param {{ rounds: number, figures: Record<string, any>, ratios: Record<string, any>, delivered: string }} result
 */
export function coldStartSection({ rounds, figures, ratios, delivered }, { machine, command, date }) {
  const rows = [];
  for (const format of ['ESM', 'CJS']) {
    for (const [stage, label] of STAGES) {
      const ours = figures[`aqm ${format}`]?.[stage];
      const theirs = figures[`langfuse ${format}`]?.[stage];
      if (ours === undefined || theirs === undefined) continue;
      const ratio = ratios[`${format} ${stage}`];
      rows.push([
        `${format}: ${label}`,
        spread(ours),
        spread(theirs),
        `**${f2(ratio.median)}x** (${f2(ratio.p25)}-${f2(ratio.p75)})`,
      ]);
    }
  }
  const auto = figures['auto ESM']?.imported;
  return [
    COLD_START_START,
    '## Cold start (issue 29)',
    '',
    `${date.slice(0, 16)} UTC, ${machine.cores} cores (${machine.model}), Node ${machine.node}; \`${command}\`.`,
    `${rounds} rounds, each variant in a fresh process per round, the order rotating; ms since the child's first line, median (p25-p75).`,
    'The ratio is @aqm/otel over @langfuse/otel within each round (same format, neighbouring processes), its median and quartiles over the rounds.',
    '',
    ...table(
      ['Stage', '@aqm/otel', '@langfuse/otel', 'ratio (goal: at most 0.8x)'],
      ['l', 'r', 'r', 'r'],
      rows,
    ),
    '',
    ...(auto === undefined
      ? []
      : [`\`import('@aqm/auto/register')\` until ready (no span): ${spread(auto)} ms.`, '']),
    `Delivered to the loopback sinks: ${delivered}.`,
    COLD_START_END,
  ].join('\n');
}

function spread(s) {
  return `${f0(s.median)} (${f0(s.p25)}-${f0(s.p75)})`;
}

/** `text` with the section replaced (its hand-written notes kept), or added before the history. */
export function withColdStartSection(text, section) {
  const old = existingColdStartSection(text) ?? '';
  const notes = old.indexOf(COLD_START_NOTES);
  const kept = notes === -1 ? '' : old.slice(notes, -COLD_START_END.length);
  const fresh = kept === '' ? section : section.replace(COLD_START_END, () => `\n${kept}${COLD_START_END}`);
  return withMarkedSection(text, fresh, COLD_START_START, COLD_START_END);
}

/** The cold-start section of an existing RESULTS.md, if any (kept when the other scenarios rewrite it). */
export function existingColdStartSection(text) {
  return existingMarkedSection(text, COLD_START_START, COLD_START_END);
}
