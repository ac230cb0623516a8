import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printedTraces } from './run-node.js';

/** A trace as an example's README shows it in its sample output. */
interface SampleTrace {
  facts: string;
  prompt: string;
  scores: string | undefined;
}

const TEXT_FENCE = /^ *```text\n([\s\S]*?)^ *```$/gm;
const SAMPLE_TRACE =
  /^ *trace [0-9a-f]{32} {2}(.*)\n {2,4}prompt: {3}(.*)(?:\n {2,4}response: .*)?(?:\n {2,4}scores: {3}(.*))?/gm;

/** The facts that vary from run to run (the duration) written the same way, so the rest compares. */
function stable(facts: string): string {
  return facts.replace(/\d+ ms/, 'N ms');
}

/** The traces shown in the `text` blocks of a README. */
function sampleTraces(readmePath: string): SampleTrace[] {
  const text = readFileSync(readmePath, 'utf8');
  return [...text.matchAll(TEXT_FENCE)].flatMap(([, body]) =>
    [...(body ?? '').matchAll(SAMPLE_TRACE)].map(([, facts, prompt, scores]) => ({
      facts: facts ?? '',
      prompt: prompt ?? '',
      scores,
    })),
  );
}

/**
 * Where the sample output of an example's README differs from what a run printed: for each trace
 * the README shows, the run's trace with the same prompt must have the same span count, model,
 * tokens and session (the duration aside) and, when the README shows them, the same scores. The
 * fake model is deterministic, so a figure that differs is a README left behind by a change.
 */
export function readmeSampleMismatches(exampleDir: string, stdout: string): string[] {
  const printed = printedTraces(stdout);
  return sampleTraces(join(exampleDir, 'README.md')).flatMap((sample) => {
    const run = printed.find((t) => t.prompt === sample.prompt);
    if (run === undefined) return [`no trace printed for the README's prompt "${sample.prompt}"`];
    const problems: string[] = [];
    if (stable(run.facts) !== stable(sample.facts)) {
      problems.push(`README shows "${sample.facts}", the run printed "${run.facts}"`);
    }
    if (sample.scores !== undefined && run.scores !== sample.scores) {
      problems.push(`README shows scores "${sample.scores}", the run printed "${run.scores}"`);
    }
    return problems;
  });
}

/** How many traces an example's README shows, so that a README losing its sample is noticed. */
export function readmeSampleCount(exampleDir: string): number {
  return sampleTraces(join(exampleDir, 'README.md')).length;
}
