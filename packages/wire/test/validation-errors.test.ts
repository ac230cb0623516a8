import { formatPath, toFieldErrors } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('formatPath', () => {
  it('joins keys with dots and puts array indexes in brackets', () => {
    expect(formatPath(['metrics', 1, 'type'])).toBe('metrics[1].type');
    expect(formatPath(['traces', 0, 'spans', 2, 'events', 3, 'time'])).toBe(
      'traces[0].spans[2].events[3].time',
    );
  });

  it('renders an index at the root without a leading dot', () => {
    expect(formatPath([4, 'name'])).toBe('[4].name');
  });

  it('renders the root as $', () => {
    expect(formatPath([])).toBe('$');
  });

  it('appends the path to a prefix', () => {
    expect(formatPath(['name'], 'body')).toBe('body.name');
    expect(formatPath([2], 'traces')).toBe('traces[2]');
    expect(formatPath([], 'body')).toBe('body');
  });
});

describe('toFieldErrors', () => {
  const schema = z.object({
    items: z.array(z.object({ n: z.number({ message: 'must be a number' }) }).strict()),
  });

  function errorOf(value: unknown): z.ZodError {
    const result = schema.safeParse(value);
    if (result.success) throw new Error('expected a rejection');
    return result.error;
  }

  it('gives one entry per issue, with indexed paths', () => {
    expect(toFieldErrors(errorOf({ items: [{ n: 1 }, { n: 'x' }, { n: 'y' }] }))).toEqual([
      { path: 'items[1].n', message: 'must be a number' },
      { path: 'items[2].n', message: 'must be a number' },
    ]);
  });

  it('names each unknown key at its own path with "is not a known field"', () => {
    expect(toFieldErrors(errorOf({ items: [{ n: 1, a: 1, b: 2 }] }))).toEqual([
      { path: 'items[0].a', message: 'is not a known field' },
      { path: 'items[0].b', message: 'is not a known field' },
    ]);
  });

  it('reports an issue of the whole value at $', () => {
    const [error] = toFieldErrors(errorOf('not an object'));
    expect(error?.path).toBe('$');
  });

  it('puts a prefix before every path', () => {
    expect(toFieldErrors(errorOf({ items: [{ n: 'x', z: 0 }] }), 'body')).toEqual([
      { path: 'body.items[0].n', message: 'must be a number' },
      { path: 'body.items[0].z', message: 'is not a known field' },
    ]);
  });
});
