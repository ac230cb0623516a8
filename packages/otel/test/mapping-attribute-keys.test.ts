import { describe, expect, it } from 'vitest';
import { AttributeKeys } from '../src/mapping/attribute-keys.js';

/** What a plain scan over every key answers: the first-character summary must never differ. */
function scanned(keys: readonly string[], prefix: string) {
  const withPrefix = keys.filter((key) => key.startsWith(prefix));
  return { has: withPrefix.length > 0, withPrefix };
}

const KEY_SETS: string[][] = [
  [],
  ['http.request.method', 'url.path', 'server.port'],
  ['gen_ai.operation.name', 'gen_ai.prompt.0.role', 'gen_ai.prompt.0.content', 'gen_ai.prompt.1.content'],
  // Characters that share a bit: 'a' (97) and 'A' (65), '0' (48) and 'p' (112), '_' (95) and DEL.
  ['Ai.operationId', 'ai.operationId', '0.x', 'p.x', '_x', '\u007fx'],
  // An empty key, a key that is only a prefix's start, non-ASCII and astral first characters.
  ['', 'l', 'ł.x', '😀.x', '\u0000.x'],
];

const PREFIXES = [
  '',
  'a',
  'ai.',
  'A',
  'gen_ai.prompt.',
  'gen_ai.prompt.0.',
  'langsmith.metadata.',
  'l',
  'p.',
  '0',
  '_',
  'ł',
  '😀',
  '\u0000',
  'traceloop.',
];

describe('AttributeKeys', () => {
  it('answers every prefix question exactly as a scan over all keys does', () => {
    for (const keys of KEY_SETS) {
      const index = new AttributeKeys(keys);
      for (const prefix of PREFIXES) {
        const expected = scanned(keys, prefix);
        expect(index.hasPrefix(prefix), `${JSON.stringify(keys)} / ${prefix}`).toBe(expected.has);
        expect(index.withPrefix(prefix), `${JSON.stringify(keys)} / ${prefix}`).toEqual(expected.withPrefix);
      }
    }
  });

  it('keeps the keys in attribute order', () => {
    const keys = ['b.2', 'a.1', 'b.1', 'c', 'b.3'];
    const index = new AttributeKeys(keys);
    expect(index.all).toEqual(keys);
    expect(index.withPrefix('b.')).toEqual(['b.2', 'b.1', 'b.3']);
  });
});
