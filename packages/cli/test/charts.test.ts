import { describe, expect, it } from 'vitest';
import { formatChartValue, renderWidgetSeries } from '../src/commands/widgets.js';
import { barChart, sparkline } from '../src/render/charts.js';

describe('sparkline', () => {
  it('scales values between their minimum and maximum', () => {
    expect(sparkline([0, 7, 14])).toBe('▁▅█');
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8])).toBe('▁▂▃▄▅▆▇█');
  });

  it('draws equal values flat: low for zeros, middle otherwise', () => {
    expect(sparkline([0, 0])).toBe('▁▁');
    expect(sparkline([5, 5, 5])).toBe('▄▄▄');
  });

  it('is empty without values and leaves gaps for non-finite ones', () => {
    expect(sparkline([])).toBe('');
    expect(sparkline([0, Number.NaN, 1])).toBe('▁ █');
  });
});

describe('barChart', () => {
  it('scales bars to the largest value and labels them', () => {
    expect(
      barChart(
        [
          { label: 'a', value: 10 },
          { label: 'bb', value: 5 },
          { label: 'c', value: 0 },
        ],
        10,
      ),
    ).toEqual(['a   ██████████ 10', 'bb  █████ 5', 'c   0']);
  });

  it('gives a small non-zero value at least one block', () => {
    expect(
      barChart(
        [
          { label: 'x', value: 1000 },
          { label: 'y', value: 1 },
        ],
        10,
      )[1],
    ).toBe('y  █ 1');
  });
});

describe('widget series', () => {
  const item = {
    type: 'trace-volume',
    total: 6,
    points: [
      { timestamp: '2026-01-01T00:00:00.000Z', value: 1 },
      { timestamp: '2026-01-01T01:00:00.000Z', value: 5 },
    ],
  };

  it('renders a sparkline with its range', () => {
    const lines = renderWidgetSeries(item, 'sparkline', undefined);
    expect(lines[0]).toBe('trace-volume  total 6  (2 points)');
    expect(lines[1]).toBe('  ▁█  min 1  max 5');
    expect(lines[2]).toContain('→');
  });

  it('renders one bar per point', () => {
    const lines = renderWidgetSeries(item, 'bars', 80);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/█+ 5$/);
  });

  it('says when there is no data', () => {
    expect(renderWidgetSeries({ type: 'latency', total: 0, points: [] }, 'sparkline', 80)).toEqual([
      'latency  total 0  (0 points)',
      '  (no data in this range)',
    ]);
  });

  it('formats values compactly', () => {
    expect(formatChartValue(3)).toBe('3');
    expect(formatChartValue(0.123456)).toBe('0.123');
  });
});
