import { describe, expect, it } from 'vitest';
import { countWords, firstWords, keyTerms, streamingChunks } from '../src/text.js';

describe('text helpers', () => {
  it('splits into one-word chunks that join back to the exact text', () => {
    for (const text of ['a b  c', '  leading and trailing  ', 'one', '', 'line\nbreaks\tand tabs']) {
      const chunks = streamingChunks(text);
      expect(chunks.join('')).toBe(text);
      expect(chunks.filter((chunk) => chunk.trim() !== '')).toHaveLength(countWords(text));
    }
  });

  it('counts whitespace-separated words', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('  ')).toBe(0);
    expect(countWords(' two  words ')).toBe(2);
  });

  it('keeps the first words', () => {
    expect(firstWords('  a b c d', 2)).toBe('a b');
    expect(firstWords('a b', 5)).toBe('a b');
  });

  it('extracts distinct content words without punctuation, first spelling kept', () => {
    expect(keyTerms('What is the GDP of France, and of france?')).toEqual(['GDP', 'France']);
  });
});
