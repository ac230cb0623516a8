import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readBody } from '../src/http/read-body.js';

function streamOf(...chunks: Buffer[]): Readable {
  return Readable.from(chunks, { objectMode: false });
}

describe('readBody', () => {
  it('reads plain and gzip bodies up to the limit', async () => {
    const body = Buffer.from('x'.repeat(5000));
    expect(await readBody(streamOf(body.subarray(0, 10), body.subarray(10)), undefined, 5000)).toEqual(body);
    expect(await readBody(streamOf(gzipSync(body)), 'gzip', 5000)).toEqual(body);
    expect(await readBody(streamOf(body), 'identity', 5000)).toEqual(body);
  });

  it('refuses a body over the limit (413), on the wire or once inflated', async () => {
    await expect(readBody(streamOf(Buffer.alloc(5001)), undefined, 5000)).rejects.toMatchObject({
      statusCode: 413,
      message: expect.stringMatching(/exceeds the limit of 5000 bytes/),
    });
    await expect(readBody(streamOf(gzipSync(Buffer.alloc(5001))), 'GZIP', 5000)).rejects.toMatchObject({
      statusCode: 413,
      message: expect.stringMatching(/inflates past the limit/),
    });
  });

  it('stops inflating a gzip bomb at the limit', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    let inflatedAtMost = 0;
    const started = process.memoryUsage().arrayBuffers;
    await expect(readBody(streamOf(bomb), 'gzip', 1024 * 1024)).rejects.toMatchObject({ statusCode: 413 });
    inflatedAtMost = process.memoryUsage().arrayBuffers - started;
    expect(inflatedAtMost).toBeLessThan(16 * 1024 * 1024);
  });

  it('refuses other encodings (415) and corrupt gzip (400)', async () => {
    await expect(readBody(streamOf(Buffer.from('x')), 'br', 100)).rejects.toMatchObject({ statusCode: 415 });
    await expect(readBody(streamOf(Buffer.from('not gzip')), 'gzip', 100)).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('shows the bytes so far to checkPrefix as they pass 1 MiB, 2 MiB, ...; what it throws refuses at once', async () => {
    const chunk = Buffer.alloc(256 * 1024, 1);
    const seen: number[] = [];
    const whole = await readBody(streamOf(...Array.from({ length: 10 }, () => chunk)), undefined, 4 << 20, {
      checkPrefix: (prefix) => {
        seen.push(prefix.length);
      },
    });
    expect(whole.length).toBe(10 * 256 * 1024);
    expect(seen).toEqual([1 << 20, 2 << 20]);

    let checked = 0;
    let pushed = 0;
    const endless = new Readable({
      read() {
        pushed += chunk.length;
        this.push(chunk);
      },
    });
    await expect(
      readBody(endless, undefined, 8 << 20, {
        checkPrefix: (prefix) => {
          checked += prefix.length;
          throw new Error('past a decode limit');
        },
      }),
    ).rejects.toThrow('past a decode limit');
    expect(checked).toBe(1 << 20);
    // Up to 1 MiB more was drained (a sender a little past the check gets the answer), no more.
    expect(endless.isPaused()).toBe(true);
    expect(pushed).toBeLessThanOrEqual((1 << 20) + (1 << 20) + 2 * chunk.length);
    endless.destroy();
  });

  it('refuses a gzip body whose inflated prefix fails the check after the wire has ended', async () => {
    const inflated = Buffer.alloc(3 << 20, 1);
    await expect(
      readBody(streamOf(gzipSync(inflated)), 'gzip', 8 << 20, {
        checkPrefix: () => {
          throw new Error('past a decode limit');
        },
      }),
    ).rejects.toThrow('past a decode limit');
  });
});
