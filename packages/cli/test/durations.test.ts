import { describe, expect, it } from 'vitest';
import { parseDuration, parseTimeBound, requireDuration, resolveTimeRange } from '../src/durations.js';
import { CliUsageError } from '../src/usage-error.js';

const NOW = new Date('2026-03-10T12:00:00.000Z');

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['30m', 1_800_000],
    ['24h', 86_400_000],
    ['7d', 604_800_000],
    ['2w', 1_209_600_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    [' 10m ', 600_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'abc', '10', '10x', 'h', '-5m', '5m extra', '5 m'])('%j is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('requireDuration names the flag', () => {
    expect(() => requireDuration('soon', '--interval')).toThrow(/--interval must be a duration.*"soon"/);
  });
});

describe('parseTimeBound', () => {
  it('takes a duration before now', () => {
    expect(parseTimeBound('24h', '--since', NOW).toISOString()).toBe('2026-03-09T12:00:00.000Z');
    expect(parseTimeBound('7d', '--since', NOW).toISOString()).toBe('2026-03-03T12:00:00.000Z');
  });

  it('takes now and ISO date-times with an offset', () => {
    expect(parseTimeBound('now', '--until', NOW).getTime()).toBe(NOW.getTime());
    expect(parseTimeBound('2026-01-31T12:00:00Z', '--since', NOW).toISOString()).toBe(
      '2026-01-31T12:00:00.000Z',
    );
    expect(parseTimeBound('2026-01-31T12:00:00+02:00', '--since', NOW).toISOString()).toBe(
      '2026-01-31T10:00:00.000Z',
    );
  });

  it('reads a date without time as local midnight', () => {
    const date = parseTimeBound('2026-01-31', '--since', NOW);
    expect([date.getFullYear(), date.getMonth(), date.getDate(), date.getHours()]).toEqual([2026, 0, 31, 0]);
  });

  it.each(['yesterday', '2026-02-30', '2026-13-01', '31/01/2026', '2026-01-31T25:00:00Z'])(
    'refuses %j with a usage error naming the flag',
    (text) => {
      expect(() => parseTimeBound(text, '--since', NOW)).toThrow(CliUsageError);
      expect(() => parseTimeBound(text, '--since', NOW)).toThrow(/^--since must be/);
    },
  );
});

describe('resolveTimeRange', () => {
  it('is open when nothing is given and there is no default', () => {
    expect(resolveTimeRange({}, NOW)).toEqual({});
  });

  it('ends now when only a start is known', () => {
    expect(resolveTimeRange({}, NOW, '24h')).toEqual({
      start: new Date('2026-03-09T12:00:00.000Z'),
      end: NOW,
    });
  });

  it('uses both flags and refuses an end before the start', () => {
    expect(resolveTimeRange({ since: '2h', until: '1h' }, NOW)).toEqual({
      start: new Date('2026-03-10T10:00:00.000Z'),
      end: new Date('2026-03-10T11:00:00.000Z'),
    });
    expect(() => resolveTimeRange({ since: '1h', until: '2h' }, NOW)).toThrow(
      '--until must be on or after --since.',
    );
  });
});
