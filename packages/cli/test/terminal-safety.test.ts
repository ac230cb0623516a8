import { Readable } from 'node:stream';
import { visibleControls } from '@aqm/wire';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { oneLineUsageError } from '../src/program.js';
import { createPalette } from '../src/render/colors.js';
import { Output } from '../src/render/output.js';
import { ScreenGuard } from '../src/render/screen-guard.js';
import { type Column, renderTable } from '../src/render/table.js';
import { displayWidth, truncate, widthPieces } from '../src/render/text-width.js';

const ESC = '\u001b';
/** What must never reach a terminal from the service: C0 but tab/LF, DEL, C1, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the test
const STEERING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const HOSTILE: Array<[string, string, string]> = [
  ['OSC 52 (clipboard write)', `a${ESC}]52;c;ZXZpbA==\u0007b`, 'a\\u001b]52;c;ZXZpbA==\\u0007b'],
  ['window title', `${ESC}]0;pwned${ESC}\\`, '\\u001b]0;pwned\\u001b\\'],
  ['clear screen and home', `${ESC}[2J${ESC}[H`, '\\u001b[2J\\u001b[H'],
  ['colour (CSI SGR)', `${ESC}[31mred${ESC}[0m`, '\\u001b[31mred\\u001b[0m'],
  ['C1 CSI and OSC', '\u009b2J\u009d0;t\u009c', '\\u009b2J\\u009d0;t\\u009c'],
  ['NEL and DEL', 'x\u0085y\u007f', 'x\\u0085y\\u007f'],
  ['lone CR (overwrites the line)', 'ok\rEVIL', 'ok\\u000dEVIL'],
  ['backspace, bell, NUL', 'a\bb\u0007\u0000', 'a\\u0008b\\u0007\\u0000'],
  ['bidi override (Trojan Source)', 'user\u202Egnp.exe', 'user\\u202egnp.exe'],
  ['bidi isolates', '\u2066a\u2067b\u2068c\u2069', '\\u2066a\\u2067b\\u2068c\\u2069'],
];

describe('visibleControls', () => {
  it.each(HOSTILE)('shows %s as \\u escapes', (_what, input, shown) => {
    expect(visibleControls(input)).toBe(shown);
    expect(STEERING.test(visibleControls(input))).toBe(false);
  });

  it('keeps text, tabs, line breaks (CRLF as LF), CJK, emoji and LRM/RLM as they are', () => {
    const text = 'Hello\tworld\nnext line\r\n日本語 😀 e\u0301 \u200f';
    expect(visibleControls(text)).toBe('Hello\tworld\nnext line\n日本語 😀 e\u0301 \u200f');
  });

  it('leaves JSON the same JSON: the escapes mean the characters inside strings', () => {
    const value = { prompt: `${ESC}]52;c;x\u0007 \u009b \u202e \u007f`, list: ['\u2066'] };
    const json = JSON.stringify(value, null, 2);
    const shown = visibleControls(json);
    expect(STEERING.test(shown)).toBe(false);
    expect(JSON.parse(shown)).toEqual(value);
  });

  it('is linear: 1.5 MiB of escape sequences in one pass', () => {
    const text = `${ESC}[2J\u009b\u202e`.repeat(262_144);
    const shown = visibleControls(text);
    expect(shown.length).toBe((text.length / 6) * 21);
    expect(STEERING.test(shown)).toBe(false);
  });
});

describe('ScreenGuard', () => {
  it("lets only aqm's own styles through, as real escapes", () => {
    const guard = new ScreenGuard();
    const palette = createPalette(true, guard.csi);
    const shown = guard.text(`${palette.green('ok')} ${ESC}[32mfake${ESC}[39m`);
    expect(shown).toBe(`${ESC}[32mok${ESC}[39m \\u001b[32mfake\\u001b[39m`);
  });

  it("cannot be fooled by another run's marker", () => {
    const other = new ScreenGuard();
    const guard = new ScreenGuard();
    expect(other.csi).not.toBe(guard.csi);
    expect(guard.text(`${other.csi}2J`)).toBe(`${other.csi}2J`);
    expect(guard.text(`${other.csi}2J`)).not.toContain(ESC);
  });

  it('keeps the terminal facts of the stream it guards', () => {
    const target = { write: (_: string) => true, isTTY: true, columns: 80 };
    const stream = new ScreenGuard().stream(target);
    expect(stream.isTTY).toBe(true);
    target.columns = 120;
    expect(stream.columns).toBe(120);
  });

  it('guards everything an Output prints: lines, fields, tables and notes', () => {
    let out = '';
    let err = '';
    const guard = new ScreenGuard();
    const io = {
      stdout: guard.stream({ write: (t: string) => (out += t), isTTY: true, columns: 80 }),
      stderr: guard.stream({ write: (t: string) => (err += t) }),
      stdin: Readable.from(['']),
      env: { FORCE_COLOR: '1' },
    };
    const output = new Output(io, { json: false, color: true, csi: guard.csi });
    const hostile = `${ESC}]52;c;ZXZpbA==\u0007${ESC}[2J\u009b31m\u202e`;
    output.line(`${output.palette.green('trace')} ${hostile}`);
    output.fields([['prompt', hostile]]);
    output.table([{ header: 'PROMPT', value: (r: { p: string }) => r.p, shrink: true }], [{ p: hostile }]);
    output.note(hostile);
    expect(out).toContain(`${ESC}[32mtrace${ESC}[39m`);
    const withoutStyles = out.replace(new RegExp(`${ESC}\\[\\d+m`, 'g'), '');
    expect(STEERING.test(withoutStyles)).toBe(false);
    expect(STEERING.test(err)).toBe(false);
    expect(withoutStyles).toContain('\\u001b]52;c;ZXZpbA==\\u0007\\u001b[2J\\u009b31m\\u202e');
  });
});

describe('tables: widths in terminal columns', () => {
  const name: Column<[string, string]> = { header: 'NAME', value: (r) => r[0] };
  const n: Column<[string, string]> = { header: 'N', value: (r) => r[1] };
  const columns = [name, n];

  it('aligns CJK, emoji, combining marks and ZWJ sequences', () => {
    const lines = renderTable(columns, [
      ['日本語', '1'],
      ['ab', '2'],
      ['😀x', '3'],
      ['e\u0301e\u0301', '4'],
      ['👩‍💻', '5'],
      ['한국', '6'],
    ]);
    expect(lines).toEqual([
      'NAME    N',
      '日本語  1',
      'ab      2',
      '😀x     3',
      'e\u0301e\u0301      4',
      '👩‍💻      5',
      '한국    6',
    ]);
    const at = lines.map((line) => stringWidth(line.slice(0, -1)));
    expect(new Set(at).size).toBe(1);
  });

  it('cuts wide text to the terminal width, never splitting a character', () => {
    const rows: Array<[string, string]> = [['説明'.repeat(40), '1']];
    const lines = renderTable([{ ...name, shrink: true }, n], rows, { maxWidth: 30 });
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(30);
    expect(lines[1]).toMatch(/^(説明)+説?… +1$/);
    expect(truncate('日本語テキスト', 6)).toBe('日本…');
    expect(truncate('日本語', 6)).toBe('日本語');
    expect(truncate('👩‍💻👩‍💻👩‍💻', 5)).toBe('👩‍💻👩‍💻…');
  });

  it('makes control characters visible in cells before measuring them', () => {
    const lines = renderTable(columns, [
      [`${ESC}]0;t\u0007`, '1'],
      ['tab\there', '2'],
    ]);
    expect(lines).toEqual([
      `NAME${' '.repeat(12)}  N`,
      '\\u001b]0;t\\u0007  1',
      `tab here${' '.repeat(8)}  2`,
    ]);
  });

  it('draws a rule under the headers when asked, and honours minWidth', () => {
    const lines = renderTable(
      [{ header: 'TEXT', value: (r: [string, string]) => r[0], shrink: true, minWidth: 12 }, n],
      [['a long text that has to be cut', '1']],
      { maxWidth: 10, rule: true },
    );
    expect(lines[1]).toBe('------------  -');
    expect(lines[2]).toBe('a long text…  1');
  });
});

describe('displayWidth', () => {
  it('agrees with string-width on text long enough to be measured in pieces', () => {
    const sample = 'Hello 日本語 😀 👩‍💻 🇫🇷 e\u0301 क्ष 한국어 ｶﾞ\u200b, ';
    for (const repeat of [1, 20, 137]) {
      const text = sample.repeat(repeat);
      expect(displayWidth(text)).toBe(stringWidth(text));
      expect([...widthPieces(text)].join('')).toBe(text);
    }
  });

  it('counts Latin-1, CJK and Hangul directly, as string-width would', () => {
    const simple = 'Grüße, çà ÿ × ÷ 中文字 ひらがな 한국어 ~ ';
    for (const repeat of [1, 50])
      expect(displayWidth(simple.repeat(repeat))).toBe(stringWidth(simple.repeat(repeat)));
    expect(displayWidth('ひらがな\u3099')).toBe(stringWidth('ひらがな\u3099'));
  });

  it('stops measuring past a limit, and tables leave a last column they need not pad alone', () => {
    const long = '日'.repeat(100_000);
    const measured = displayWidth(long, 80);
    expect(measured).toBeGreaterThan(80);
    expect(measured).toBeLessThan(2_000);
    const lines = renderTable(
      [
        { header: 'N', value: (r: [string, string]) => r[0] },
        { header: 'TEXT', value: (r: [string, string]) => r[1], shrink: true },
      ],
      [['1', long]],
    );
    expect(lines).toEqual(['N  TEXT', `1  ${long}`]);
  });

  // Node 20's Intl.Segmenter would take minutes on these (56,000 CJK characters: 1.5 s).
  it('is linear where Intl.Segmenter is not (Node 20): 256 Ki characters of CJK and of marks', () => {
    expect(displayWidth('日'.repeat(262_144))).toBe(524_288);
    const marks = `a${'\u0301'.repeat(262_144)}`;
    expect(displayWidth(marks)).toBe(1);
    expect(truncate('語'.repeat(262_144), 9)).toBe('語語語語…');
  });
});

describe('oneLineUsageError', () => {
  it('joins lines and is linear on long runs of blanks (argv is quoted in it)', () => {
    expect(oneLineUsageError("error: unknown command 'x'\n  (Did you mean y?)\n")).toBe(
      "aqm: error: unknown command 'x' (Did you mean y?). Add --help for usage.\n",
    );
    const blanks = ' '.repeat(1_000_000);
    expect(oneLineUsageError(`error: unknown command '${blanks}x'`)).toContain(`'${blanks}x'.`);
  });
});
