import { describe, expect, it } from 'vitest';
import { LAMBDA_TIME_MARGIN_MS, withAqmFlush } from '../src/with-aqm-flush.js';
import { deferred } from './export-helpers/fake-service.js';
import { withServiceAndStderr } from './export-helpers/stderr-setup.js';

const { stderrLines } = withServiceAndStderr();

/** A flushable that records when it was flushed, relative to the handler's steps. */
function recorder() {
  const steps: string[] = [];
  const flushable = {
    async forceFlush() {
      steps.push('flush started');
      await Promise.resolve();
      steps.push('flushed');
    },
  };
  return { steps, flushable };
}

describe('withAqmFlush', () => {
  it('returns the handler result only after the flush resolved, with the same arguments and this', async () => {
    const { steps, flushable } = recorder();
    const wrapped = withAqmFlush(
      flushable,
      async function (this: unknown, event: { n: number }, ctx: string) {
        steps.push(`handler ${event.n} ${ctx} ${String(this)}`);
        return event.n * 2;
      },
    );
    const result = await wrapped.call('self', { n: 21 }, 'ctx');
    steps.push('returned');
    expect(result).toBe(42);
    expect(steps).toEqual(['handler 21 ctx self', 'flush started', 'flushed', 'returned']);
    expect(wrapped.length).toBe(0); // a Lambda runtime sees an async handler
  });

  it('flushes when the handler throws (sync or async), then throws its error', async () => {
    const { steps, flushable } = recorder();
    const failing = withAqmFlush(flushable, async () => {
      throw new Error('boom');
    });
    await expect(failing()).rejects.toThrow('boom');
    const failingSync = withAqmFlush(flushable, () => {
      throw new Error('sync boom');
    });
    await expect(failingSync()).rejects.toThrow('sync boom');
    expect(steps).toEqual(['flush started', 'flushed', 'flush started', 'flushed']);
  });

  it('turns a callback-style handler into an async one that settles after the flush', async () => {
    const { steps, flushable } = recorder();
    type Callback = (error: Error | null, result?: string) => void;
    const wrapped = withAqmFlush(flushable, (event: string, _context: object, callback: Callback) => {
      setImmediate(() => callback(null, `echo ${event}`));
    });
    await expect(wrapped('hi', {}, () => {})).resolves.toBe('echo hi');
    const failing = withAqmFlush(flushable, (_event: string, _context: object, callback: Callback) => {
      callback(new Error('callback error'));
    });
    await expect(failing('x', {}, () => {})).rejects.toThrow('callback error');
    expect(steps).toEqual(['flush started', 'flushed', 'flush started', 'flushed']);
  });

  it('never lets a failing flush change the result', async () => {
    const wrapped = withAqmFlush(
      { forceFlush: () => Promise.reject(new Error('exporter failed')) },
      () => 'ok',
    );
    await expect(wrapped()).resolves.toBe('ok');
    const throwing = withAqmFlush(
      {
        forceFlush: () => {
          throw new Error('sync failure');
        },
      },
      () => 'ok too',
    );
    await expect(throwing()).resolves.toBe('ok too');
    expect(stderrLines().join('')).toContain(
      'The flush after this invocation failed: Error: exporter failed',
    );
  });

  it("stops waiting before a Lambda invocation's timeout, saying the traces go with a later flush", async () => {
    const never = deferred();
    const wrapped = withAqmFlush(
      { forceFlush: () => never.promise },
      (_event: object, _context: object) => 'answer',
    );
    const context = { getRemainingTimeInMillis: () => LAMBDA_TIME_MARGIN_MS + 5 };
    try {
      await expect(wrapped({}, context)).resolves.toBe('answer');
    } finally {
      never.resolve();
    }
    expect(stderrLines().join('')).toContain(
      "did not finish within the invocation's remaining time (5 ms): the traces still queued go with a later flush",
    );
  });

  it('throws a TypeError naming a missing forceFlush or a handler that is not a function', () => {
    expect(() => withAqmFlush({} as never, () => 1)).toThrow(
      'Expected `flushable` to have a forceFlush() method (an AqmSpanProcessor, say), got an object',
    );
    expect(() => withAqmFlush({ forceFlush: async () => {} }, 'handler' as never)).toThrow(
      'Expected `handler` to be a function, got `handler` (string)',
    );
  });
});
