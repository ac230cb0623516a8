// Markdown for RESULTS.md: number formats that say 'n/a' for what was not measured, and tables
// padded as the repository's formatter writes them.
import { MiB } from './measure.mjs';

const fixed = (digits) => (value) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
export const f0 = fixed(0);
export const f1 = fixed(1);
export const f2 = fixed(2);
export const pct = (value) => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : 'n/a');
export const mibOf = (bytes) => (Number.isFinite(bytes) ? `${(bytes / MiB).toFixed(1)} MiB` : 'n/a');

/**
 * A Markdown table with its columns padded, as the repository's formatter (Biome) writes them, so a
 * freshly written RESULTS.md passes `pnpm lint`. `align`: 'l' or 'r' per column.
 * @param {string[]} header
 * @param {('l' | 'r')[]} align
 * @param {unknown[][]} rows
 */
export function table(header, align, rows) {
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
