import type { Palette } from './colors.js';

/** A score with 2 decimals, as tables show it. */
export function formatScore(score: number): string {
  return Number.isFinite(score) ? score.toFixed(2) : String(score);
}

/** `0.83 ✓` or `0.41 ✗`, green or red on a terminal: the pass/fail colour of a score. */
export function paintScore(score: number, passed: boolean, palette: Palette): string {
  const text = `${formatScore(score)} ${passed ? '✓' : '✗'}`;
  return passed ? palette.green(text) : palette.red(text);
}

/** A guardrail `passStatus` coloured by outcome: `success` green, `error` red. */
export function paintPassStatus(status: string, palette: Palette): string {
  if (status === 'success') return palette.green(status);
  if (status === 'error') return palette.red(status);
  return status;
}
