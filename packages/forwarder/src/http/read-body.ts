import type { Readable } from 'node:stream';
import { createGunzip, type Gunzip } from 'node:zlib';
import type { BodyAccount } from './body-budget.js';
import { ForwarderHttpError } from './http-error.js';

const FIRST_PREFIX_CHECK = 1024 * 1024;
const MAX_DRAIN = 1024 * 1024;

/** What a body is held to as it arrives, besides its size limit. */
export interface ReadBodyChecks {
  /** Counts the bytes kept against the total of all requests in flight. */
  account?: BodyAccount;
  /** Sees the bytes received so far as they pass 1 MiB, 2 MiB, 4 MiB...; what it throws refuses the body. */
  checkPrefix?: (prefix: Buffer) => void;
}

/**
 * Reads a request body of at most `limit` bytes, inflating it when `Content-Encoding: gzip`. Both
 * the bytes on the wire and the inflated bytes are capped: a gzip bomb is refused (413) as soon as
 * its output passes the limit, without inflating the rest. An encoding other than gzip/identity is
 * refused (415); a corrupt gzip stream is a 400. With an `account`, the bytes kept are also counted
 * against the total of all requests as they arrive: past it, a 503 with `Retry-After`. The account is
 * released once the body is read, refused, or its sender goes away. `checkPrefix`, when given, sees
 * the (inflated) bytes received so far each time they pass 1 MiB, 2 MiB, 4 MiB and so on (work at
 * most twice the body's): what it throws refuses the request (the rest is read no further than 1 MiB).
 *
 * @example
 * const body = await readBody(request.raw, request.headers['content-encoding'], 4 * 1024 * 1024);
 */
export function readBody(
  stream: Readable,
  contentEncoding: string | undefined,
  limit: number,
  { account, checkPrefix }: ReadBodyChecks = {},
): Promise<Buffer> {
  const encoding = (contentEncoding ?? 'identity').trim().toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'identity' && encoding !== '') {
    account?.release();
    stream.resume();
    return Promise.reject(
      new ForwarderHttpError(
        415,
        `Content-Encoding "${encoding}" is not supported; send gzip or no encoding`,
      ),
    );
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let wireBytes = 0;
    let bodyBytes = 0;
    let done = false;
    let gunzip: Gunzip | undefined;
    let nextCheck = FIRST_PREFIX_CHECK;
    const fail = (error: Error, drain = false) => {
      if (done) return;
      done = true;
      // Let go of what was kept: the stream (and these listeners) may live on until the sender closes.
      chunks.length = 0;
      account?.release();
      gunzip?.destroy();
      stream.unpipe();
      // Inflating may still run after the wire has ended (gzip): nothing is left to drain.
      if (drain && !stream.readableEnded) {
        // Refused by checkPrefix: up to MAX_DRAIN more is read and dropped (no copy, no check) and
        // the refusal answered when the body ends, so that a sender still writing a body a little
        // past the check gets the answer rather than a broken connection. A larger rest is not
        // worth reading (it is what a hostile sender sends): the connection closes, as below.
        let drained = 0;
        stream.on('data', (chunk: Buffer) => {
          drained += chunk.length;
          if (drained <= Math.min(limit, MAX_DRAIN)) return;
          stream.pause();
          reject(error);
        });
        // Whichever comes first answers (reject is once only): the end, or a broken connection.
        for (const event of ['end', 'error', 'close']) stream.once(event, () => reject(error));
        stream.resume();
        return;
      }
      // Stop reading: the rest of an oversized body is not worth the work. The connection closes
      // after the answer (Node does not keep a socket alive with an unread body).
      stream.pause();
      reject(error);
    };
    const tooLarge = (what: string) =>
      new ForwarderHttpError(413, `The request body ${what} the limit of ${limit} bytes (maxBodyBytes)`);
    const collect = (chunk: Buffer) => {
      if (done) return;
      bodyBytes += chunk.length;
      if (bodyBytes > limit) {
        fail(tooLarge(gunzip === undefined ? 'exceeds' : 'inflates past'));
        return;
      }
      if (account !== undefined && !account.take(chunk.length)) {
        fail(account.budget.refusal());
        return;
      }
      chunks.push(chunk);
      // At the limit, the next byte is a 413 and a whole body is checked when decoded.
      if (checkPrefix === undefined || bodyBytes < nextCheck || bodyBytes >= limit) return;
      nextCheck *= 2;
      const prefix = Buffer.concat(chunks, bodyBytes);
      chunks.length = 0;
      chunks.push(prefix);
      try {
        checkPrefix(prefix);
      } catch (error) {
        fail(error as Error, true);
      }
    };
    const finish = () => {
      if (done) return;
      done = true;
      // The body is decoded and let go in the same turn of the event loop, by the route handler.
      account?.release();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, bodyBytes));
    };
    const unreadable = () => fail(new ForwarderHttpError(400, 'The request body could not be read'));
    stream.on('error', unreadable);
    // A sender gone before the end of its body (or timed out): what it sent is given back.
    stream.on('close', () => {
      if (!stream.readableEnded) unreadable();
    });
    if (encoding === 'gzip') {
      gunzip = createGunzip({ chunkSize: 64 * 1024 });
      gunzip.on('data', collect);
      gunzip.on('end', finish);
      gunzip.on('error', () => fail(new ForwarderHttpError(400, 'The gzip request body is corrupt')));
      stream.on('data', (chunk: Buffer) => {
        if (done) return;
        wireBytes += chunk.length;
        if (wireBytes > limit) {
          fail(tooLarge('exceeds'));
          return;
        }
        // Backpressure: compressed bytes wait in the socket, not in the inflater's queue.
        if (gunzip?.write(chunk) === false) {
          stream.pause();
          gunzip.once('drain', () => {
            if (!done) stream.resume();
          });
        }
      });
      stream.on('end', () => gunzip?.end());
    } else {
      stream.on('data', collect);
      stream.on('end', finish);
    }
  });
}
