import { describe, expect, it } from 'vitest';
import { configAttributes } from '../src/run-config.js';

describe('configAttributes: a run’s LangChain tags and metadata as aqm.* attributes', () => {
  it('keeps the app’s entries and tags, leaving out LangChain’s own, the ids and non-flat values', () => {
    expect(
      configAttributes(
        {
          tenant: 'acme',
          seats: 3,
          trial: true,
          nested: { a: 1 },
          infinite: Number.POSITIVE_INFINITY,
          ls_provider: 'openai',
          langgraph_node: 'agent',
          user_id: 'u',
          thread_id: 't',
        },
        ['beta', 'seq:step:1', 'map:key:context', 'langsmith:hidden', 'graph:step:2', 'beta', ''],
        32_768,
      ),
    ).toEqual({
      'aqm.metadata.tenant': 'acme',
      'aqm.metadata.seats': 3,
      'aqm.metadata.trial': true,
      'aqm.tags': ['beta'],
    });
  });

  it('bounds what it keeps: string values at maxValueChars, 64 entries, 64 tags of 200 characters', () => {
    const metadata = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`k${i}`, 'x'.repeat(100)]));
    const tags = Array.from({ length: 70 }, (_, i) => `${i}`.padEnd(250, 't'));
    const attributes = configAttributes(metadata, tags, 64);
    const keys = Object.keys(attributes).filter((key) => key.startsWith('aqm.metadata.'));
    expect(keys).toHaveLength(64);
    expect(String(attributes['aqm.metadata.k0']).length).toBeLessThan(100);
    const kept = attributes['aqm.tags'] as string[];
    expect(kept).toHaveLength(64);
    expect(kept.every((tag) => tag.length === 200)).toBe(true);
  });

  it('answers nothing for missing or unusable config', () => {
    expect(configAttributes(undefined, undefined, 100)).toEqual({});
    expect(configAttributes('metadata', 'tags', 100)).toEqual({});
  });
});
