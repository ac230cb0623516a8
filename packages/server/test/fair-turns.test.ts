import { describe, expect, it } from 'vitest';
import { FairTurns } from '../src/fair-turns.js';

describe('FairTurns', () => {
  it('takes the projects round-robin, each in its order', async () => {
    const turns = new FairTurns();
    const order: string[] = [];
    const runs = [
      ...['a1', 'a2', 'a3', 'a4'].map((name) => turns.run('a', () => order.push(name))),
      turns.run('b', () => order.push('b1')),
      turns.run('c', () => order.push('c1')),
    ];
    await Promise.all(runs);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'a3', 'a4']);
  });

  it('resolves with what the step returns and rejects with what it throws', async () => {
    const turns = new FairTurns();
    await expect(turns.run('a', () => 42)).resolves.toBe(42);
    await expect(
      turns.run('a', () => {
        throw new Error('bad body');
      }),
    ).rejects.toThrow('bad body');
    await expect(turns.run('a', () => 'next')).resolves.toBe('next');
  });

  it('runs one step per turn of the loop: the callbacks that came meanwhile run between two', async () => {
    const turns = new FairTurns();
    const order: string[] = [];
    const steps = [1, 2, 3].map((i) =>
      turns.run('a', () => {
        if (i === 1) setImmediate(() => order.push('other'));
        order.push(`step ${i}`);
      }),
    );
    await Promise.all(steps);
    expect(order).toEqual(['step 1', 'other', 'step 2', 'step 3']);
  });
});
