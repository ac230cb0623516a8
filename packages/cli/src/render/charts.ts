const LEVELS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/**
 * A sparkline of the values, one block character per value scaled between their minimum and
 * maximum. Equal values draw a flat line (low for zeros, middle otherwise).
 * @example
 * ```ts
 * sparkline([1, 5, 3]); // '▁█▄'
 * ```
 */
export function sparkline(values: number[]): string {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return '';
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  return values
    .map((value) => {
      if (!Number.isFinite(value)) return ' ';
      if (max === min) return max === 0 ? (LEVELS[0] as string) : (LEVELS[3] as string);
      const level = Math.round(((value - min) / (max - min)) * (LEVELS.length - 1));
      return LEVELS[level] as string;
    })
    .join('');
}

/** A labelled value drawn by {@link barChart}. */
export interface Bar {
  label: string;
  value: number;
}

/**
 * Horizontal bars, one line per item: the label, a bar scaled to the largest value within
 * `width` characters, and the value. Non-zero values always get at least one block.
 */
export function barChart(bars: Bar[], width: number, formatValue: (v: number) => string = String): string[] {
  const labelWidth = Math.max(0, ...bars.map((b) => b.label.length));
  const max = Math.max(0, ...bars.map((b) => Math.abs(b.value)));
  return bars.map((bar) => {
    const scaled = max === 0 ? 0 : Math.round((Math.abs(bar.value) / max) * width);
    const length = bar.value !== 0 ? Math.max(1, scaled) : 0;
    return `${bar.label.padEnd(labelWidth)}  ${'█'.repeat(length)}${length > 0 ? ' ' : ''}${formatValue(bar.value)}`;
  });
}
