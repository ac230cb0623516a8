import { afterEach, describe, expect, it, vi } from 'vitest';
import { warn } from '../src/warn.js';

afterEach(() => vi.restoreAllMocks());

describe('warn', () => {
  it('prints one line with the control characters of a quoted service message made visible', () => {
    const printed: string[] = [];
    vi.spyOn(console, 'warn').mockImplementation((line: string) => printed.push(line));
    warn('lookup failed: 404 \u001b]0;owned\u0007 not found\nforged line');
    expect(printed).toEqual([
      '@aqm/auto: lookup failed: 404 \\u001b]0;owned\\u0007 not found\\u000aforged line',
    ]);
  });
});
