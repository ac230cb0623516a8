import { describe, expect, it } from 'vitest';
import { createPalette, shouldUseColor, stripAnsi } from '../src/render/colors.js';
import { formatLocalTime } from '../src/render/local-time.js';
import { type Column, fitWidths, renderTable, truncate } from '../src/render/table.js';

interface Row {
  id: string;
  name: string;
  score: number;
}

const columns: Column<Row>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'NAME', value: (r) => r.name, shrink: true },
  { header: 'SCORE', value: (r) => r.score.toFixed(2), align: 'right', style: (t) => `<${t}>` },
];
const rows: Row[] = [
  { id: '4bf92f3577b34da6a3ce929d0e0e4736', name: 'a rather long application name', score: 0.5 },
  { id: 'short', name: 'x', score: 1 },
];

describe('renderTable', () => {
  it('aligns columns with two spaces, pads right-aligned cells, and trims line ends', () => {
    expect(renderTable(columns, rows)).toEqual([
      'ID                                NAME                            SCORE',
      '4bf92f3577b34da6a3ce929d0e0e4736  a rather long application name   0.50',
      'short                             x                                1.00',
    ]);
  });

  it('cuts only shrinkable columns to fit, marking the cut, and keeps ids whole', () => {
    const lines = renderTable(columns, rows, { maxWidth: 60 });
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    expect(lines[1]).toContain('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(lines[1]).toContain('…');
    expect(lines[1]).toMatch(/0\.50$/);
  });

  it('lets the line run over when only ids would have to be cut', () => {
    const lines = renderTable(columns, rows, { maxWidth: 20 });
    expect(lines[1]).toContain('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(lines[1]).toContain('a rathe…');
  });

  it('styles cells after padding, only with colour on', () => {
    const plain = renderTable(columns, rows, { palette: createPalette(false) });
    expect(plain.join('\n')).not.toContain('<');
    const styled = renderTable(columns, rows, { palette: createPalette(true) });
    expect(styled[1]).toContain('< 0.50>');
    expect(styled[0]).toContain('\u001b[1m');
    expect(stripAnsi(styled[0] as string)).toBe(plain[0]);
  });

  it('keeps one line per row when a value holds line breaks', () => {
    const lines = renderTable(columns, [{ id: 'a', name: 'two\nlines', score: 0 }]);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('two lines');
  });
});

describe('truncate and fitWidths', () => {
  it('truncates with an ellipsis', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 4)).toBe('abc');
  });

  it('narrows the widest shrinkable column first, not below its header or 8', () => {
    expect(fitWidths([10, 30, 20], [false, true, true], [2, 4, 5], 50)).toEqual([10, 18, 18]);
    expect(fitWidths([10, 30], [false, true], [2, 12], 10)).toEqual([10, 12]);
  });
});

describe('colour decision', () => {
  it('follows --no-color, then FORCE_COLOR, then NO_COLOR, then the terminal', () => {
    expect(shouldUseColor({}, true)).toBe(true);
    expect(shouldUseColor({}, false)).toBe(false);
    expect(shouldUseColor({}, undefined)).toBe(false);
    expect(shouldUseColor({ TERM: 'dumb' }, true)).toBe(false);
    expect(shouldUseColor({ NO_COLOR: '1' }, true)).toBe(false);
    expect(shouldUseColor({ NO_COLOR: '' }, true)).toBe(true);
    expect(shouldUseColor({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(shouldUseColor({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(shouldUseColor({ FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(true);
    expect(shouldUseColor({ FORCE_COLOR: '1' }, true, false)).toBe(false);
  });
});

describe('formatLocalTime', () => {
  it('shows the local wall-clock time of a UTC instant', () => {
    const iso = '2026-01-31T12:34:56.000Z';
    const d = new Date(iso);
    const expected = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ${String(d.getHours()).padStart(2, '0')}:34:56`;
    expect(formatLocalTime(iso)).toBe(expected);
  });

  it('returns unparseable input unchanged', () => {
    expect(formatLocalTime('not a date')).toBe('not a date');
  });
});
