import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsText, MAX_SEARCHED_CHARS } from '../src/mapping/text-contains.js';

describe('containsText (the prompt rule’s containment check)', () => {
  it('answers as String.prototype.includes for any texts over a small alphabet (many near-matches)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 40 });
    fc.assert(
      fc.property(text, text, (haystack, needle) => {
        expect(containsText(haystack, needle)).toBe(needle !== '' && haystack.includes(needle));
      }),
      { numRuns: 2_000 },
    );
  });

  it('finds a needle at the start, in the middle and at the end, and across UTF-16 surrogates', () => {
    expect(containsText('France is in Europe', 'France')).toBe(true);
    expect(containsText('What is the capital of France?', 'France')).toBe(true);
    expect(containsText('aaaaaaaaab', 'aaab')).toBe(true);
    expect(containsText('Context 🇫🇷 Question', '🇫🇷 Q')).toBe(true);
    expect(containsText('abc', 'abcd')).toBe(false);
  });

  it('answers false for an empty needle and for a haystack beyond the searched bound', () => {
    expect(containsText('anything', '')).toBe(false);
    const huge = 'a'.repeat(MAX_SEARCHED_CHARS + 1);
    expect(containsText(huge, 'a')).toBe(false);
    expect(containsText(huge.slice(1), 'a')).toBe(true);
  });

  it('handles the quadratic case of a naive search (a long run of one letter) without a different answer', () => {
    const haystack = `${'a'.repeat(MAX_SEARCHED_CHARS - 1)}b`;
    expect(containsText(haystack, `${'a'.repeat(10_000)}b`)).toBe(true);
    expect(containsText(haystack, `${'a'.repeat(10_000)}c`)).toBe(false);
  });
});
