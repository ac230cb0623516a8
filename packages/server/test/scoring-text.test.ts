import { describe, expect, it } from 'vitest';
import {
  contentTerms,
  figure,
  plural,
  roundScore,
  sentenceSpans,
  stem,
  termSet,
  words,
} from '../src/scoring/text.js';

const sentences = (text: string) => sentenceSpans(text).map((span) => text.slice(span.start, span.end));

describe('words', () => {
  it('lower-cases, folds compatibility forms and typographic apostrophes', () => {
    expect(words('ＲＥＦＵＮＤ It’s Café, 30 days!')).toEqual(['refund', "it's", 'café', '30', 'days']);
  });

  it('splits scripts written without spaces into characters', () => {
    expect(words('退款政策 ok')).toEqual(['退', '款', '政', '策', 'ok']);
  });

  it('finds no words in empty, blank or symbol-only text', () => {
    expect(words('')).toEqual([]);
    expect(words('  \n\t ')).toEqual([]);
    expect(words('👍 -- !!')).toEqual([]);
  });
});

describe('stem and content terms', () => {
  it('joins singular and plural forms and leaves other endings alone', () => {
    expect(['refunds', 'policies', 'class', 'status', 'analysis', 'bus', 'its'].map(stem)).toEqual([
      'refund',
      'policy',
      'class',
      'status',
      'analysis',
      'bus',
      'its',
    ]);
  });

  it('drops stopwords and keeps order and repeats', () => {
    expect(contentTerms('What is the refund policy? The refunds!')).toEqual(['refund', 'policy', 'refund']);
    expect([...termSet('What is the refund policy? The refunds!')]).toEqual(['refund', 'policy']);
    expect(contentTerms('it is what it is')).toEqual([]);
  });
});

describe('sentenceSpans', () => {
  it('splits at terminal punctuation followed by space, and at line breaks', () => {
    expect(sentences('Hello world. Version 3.5 is out! Really?\nNext line')).toEqual([
      'Hello world.',
      'Version 3.5 is out!',
      'Really?',
      'Next line',
    ]);
  });

  it('keeps closing quotes with their sentence and handles CJK full stops', () => {
    expect(sentences('He said "stop." Then left. 你好。世界')).toEqual([
      'He said "stop."',
      'Then left.',
      '你好。',
      '世界',
    ]);
  });

  it('returns located spans without surrounding blanks and no empty sentences', () => {
    const text = '  One.   Two.  ';
    expect(sentenceSpans(text)).toEqual([
      { start: 2, end: 6 },
      { start: 9, end: 13 },
    ]);
    expect(sentenceSpans('')).toEqual([]);
    expect(sentenceSpans(' \n ')).toEqual([]);
  });
});

describe('number formatting', () => {
  it('rounds scores to 4 decimals and figures to 2', () => {
    expect(roundScore(1 / 3)).toBe(0.3333);
    expect(figure(2 / 3)).toBe('0.67');
    expect(figure(50)).toBe('50');
    expect(plural(1, 'word')).toBe('1 word');
    expect(plural(0, 'word')).toBe('0 words');
    expect(plural(2, 'entity', 'entities')).toBe('2 entities');
  });
});
