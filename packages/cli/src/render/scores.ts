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

/**
 * A guardrail `passStatus` as it reads: `success` → `pass` (green), `error` → `fail` (red), since
 * `error` is a validator's verdict on the content, not a failure of the service or of the app.
 */
export function paintPassStatus(status: string, palette: Palette): string {
  if (status === 'success') return palette.green('pass');
  if (status === 'error') return palette.red('fail');
  return status;
}

/** The plain word of a guardrail `passStatus`: `pass`, `fail`, or the value itself if unknown. */
export function passStatusWord(status: string): string {
  return status === 'success' ? 'pass' : status === 'error' ? 'fail' : status;
}
