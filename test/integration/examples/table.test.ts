import { describe, expect, it } from 'vitest';
import { heading, renderTable, truncate } from '../../../scripts/demo/table.mjs';

const ESC = '\u001b';

describe('demo tables', () => {
  it('truncate cuts to the width with an ellipsis, and leaves short texts alone', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abcd', 4)).toBe('abcd');
    expect(truncate('äöü✓x', 4)).toBe('äöü…'); // code points, not UTF-16 units
    expect(truncate('abc', 0)).toBe('');
  });

  it('aligns columns, right-aligns numbers and adds no colour when asked not to', () => {
    const text = renderTable({
      columns: [{ header: 'name' }, { header: 'count', align: 'right' }],
      rows: [
        ['alpha', '7'],
        [{ text: 'beta', tone: 'bad' }, '1234'],
      ],
      maxWidth: 80,
      color: false,
    });
    expect(text.split('\n')).toEqual(['name   count', '-----  -----', 'alpha      7', 'beta    1234']);
  });

  it('shrinks the widest flexible column first so every line fits the width', () => {
    const long = 'x'.repeat(60);
    const text = renderTable({
      columns: [{ header: 'id' }, { header: 'a', flex: true }, { header: 'b', flex: true }],
      rows: [['1', long, 'short text']],
      maxWidth: 40,
      color: false,
    });
    const lines = text.split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    // id: 2, gaps: 2 × 2, b: 10, so a gets 24 of the 40 columns.
    expect(lines[2]).toBe(`1   ${'x'.repeat(23)}…  short text`);
  });

  it('one-lines multi-line cells and colours tones only with color on', () => {
    const rows = [[{ text: 'pass', tone: 'good' as const }, 'two\nlines']];
    const columns = [{ header: 'result' }, { header: 'text' }];
    const plain = renderTable({ columns, rows, maxWidth: 80, color: false });
    const coloured = renderTable({ columns, rows, maxWidth: 80, color: true });
    expect(plain.split('\n')[2]).toBe('pass    two lines');
    expect(coloured).toContain('\x1b[32mpass  \x1b[39m');
    expect(coloured.replace(new RegExp(`${ESC}\\[\\d+m`, 'g'), '')).toBe(plain);
    expect(heading('Traces', false)).toBe('\n== Traces ==');
  });

  it('is the CLI renderer: CJK and emoji aligned in terminal columns, control characters shown', () => {
    const text = renderTable({
      columns: [{ header: 'prompt' }, { header: 'n', align: 'right' }],
      rows: [
        ['日本語のテキスト', '1'],
        ['emoji 😀', '2'],
        [`${ESC}]52;c;eA==\u0007`, '3'],
      ],
      maxWidth: 80,
      color: false,
    });
    expect(text.split('\n')).toEqual([
      `prompt${' '.repeat(16)}  n`,
      `${'-'.repeat(22)}  -`,
      `日本語のテキスト${' '.repeat(6)}  1`,
      `emoji 😀${' '.repeat(14)}  2`,
      '\\u001b]52;c;eA==\\u0007  3',
    ]);
    expect(truncate(`日本語${ESC}[2J`, 5)).toBe('日本…');
    expect(truncate(`a${ESC}[2J`, 20)).toBe('a\\u001b[2J');
  });
});
