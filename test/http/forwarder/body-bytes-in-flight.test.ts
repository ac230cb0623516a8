import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../otel/helpers/wait.js';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import { llmTraceSpans, postOtlp, protoBody } from './helpers/otlp-bodies.js';

let stack: ForwarderStack;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-in-flight');
});
afterAll(async () => {
  await stack?.close();
});

const MIB = 1024 * 1024;

/**
 * Buffer bytes still reachable: full collections first, so garbage of refused bodies is not
 * counted, with turns of the event loop between them for V8's concurrent freeing of buffers.
 */
async function liveBufferBytes(): Promise<number> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let i = 0; i < 3; i += 1) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().arrayBuffers;
}

/** A connection that sent all of a gzip body but its 8-byte trailer, and waits for an answer. */
interface StalledUpload {
  socket: Socket;
  answer: string;
  closed: boolean;
}

function stalledUpload(port: number, gzipped: Buffer): StalledUpload {
  const upload: StalledUpload = { socket: connect(port, '127.0.0.1'), answer: '', closed: false };
  const head =
    'POST /v1/traces HTTP/1.1\r\nHost: x\r\ncontent-type: application/x-protobuf\r\n' +
    `content-encoding: gzip\r\ncontent-length: ${gzipped.length}\r\n\r\n`;
  upload.socket.on('connect', () =>
    upload.socket.write(Buffer.concat([Buffer.from(head), gzipped.subarray(0, gzipped.length - 8)])),
  );
  upload.socket.setEncoding('utf8');
  upload.socket.on('data', (chunk: string) => {
    upload.answer += chunk;
  });
  upload.socket.on('error', () => {});
  upload.socket.on('close', () => {
    upload.closed = true;
  });
  return upload;
}

describe('the bytes of request bodies held at once, over all connections', () => {
  it('refuses uploads past maxBodyBytesInFlight with 503 + Retry-After, and frees the bound as they go', async () => {
    const bound = 4 * MIB;
    const forwarder = await stack.forwarder({
      maxBodyBytes: MIB,
      maxBodyBytesInFlight: bound,
      rootGraceMs: 0,
    });
    const port = Number(new URL(forwarder.url).port);
    // A real trace whose prompt makes it inflate to just under maxBodyBytes, from a few KB of gzip.
    const body = protoBody(llmTraceSpans(`${'x'.repeat(MIB - 4096)}?`, 'big.').spans);
    expect(body.length).toBeLessThan(MIB);
    expect(body.length).toBeGreaterThan(bound / 5);
    const gzipped = gzipSync(body);
    expect(gzipped.length).toBeLessThan(16 * 1024);
    const fit = Math.floor(bound / body.length); // 4
    const uploads = 16;
    const before = await liveBufferBytes();

    const stalled = Array.from({ length: uploads }, () => stalledUpload(port, gzipped));
    try {
      const answered = () => stalled.filter((upload) => upload.answer !== '');
      let maxSeen = 0;
      await waitFor(
        () => {
          const { bodyBytesInFlight } = forwarder.stats();
          maxSeen = Math.max(maxSeen, bodyBytesInFlight);
          return answered().length === uploads - fit && bodyBytesInFlight === fit * body.length;
        },
        `${uploads - fit} uploads refused and ${fit} held whole`,
        15_000,
        () => `${answered().length} answered, ${forwarder.stats().bodyBytesInFlight} bytes in flight`,
      );
      const grown = (await liveBufferBytes()) - before;
      for (const upload of answered()) {
        expect(upload.answer).toMatch(/^HTTP\/1\.1 503 /);
        // The service is not waiting on anything the forwarder holds: room comes as uploads end.
        expect(upload.answer).toMatch(/\r\nretry-after: 1\r\n/i);
        expect(upload.answer).toContain('maxBodyBytesInFlight');
      }
      const stats = forwarder.stats();
      expect(maxSeen).toBeLessThanOrEqual(bound);
      expect(stats.bodyBytesInFlightPeak).toBeLessThanOrEqual(bound);
      expect(stats.refusedBodyBytesInFlight).toBe(uploads - fit);
      // Bounded stress: what the held bodies take is the bound's worth, not every upload's.
      // (fit / uploads = 0.25 here; about 1 when every upload keeps what it sent).
      expect(grown / (uploads * body.length)).toBeLessThan(0.5);

      const metrics = await (await fetch(`${forwarder.url}/metrics`)).text();
      expect(metrics).toContain(`aqm_forwarder_requests_refused_body_bytes_in_flight_total ${uploads - fit}`);
      expect(metrics).toContain(`aqm_forwarder_body_bytes_in_flight ${fit * body.length}`);
      expect(metrics).toMatch(/# TYPE aqm_forwarder_body_bytes_in_flight gauge/);
    } finally {
      // The senders give up: their share is given back, and a whole body is taken again.
      for (const upload of stalled) upload.socket.destroy();
    }
    await waitFor(() => forwarder.stats().bodyBytesInFlight === 0, 'the bound released');
    const whole = await postOtlp(forwarder.url, body, { gzip: true });
    expect(whole.status).toBe(200);
    expect(forwarder.stats().bodyBytesInFlight).toBe(0);
  });

  it('checks maxBodyBytesInFlight against maxBodyBytes, naming it', async () => {
    await expect(stack.forwarder({ maxBodyBytes: MIB, maxBodyBytesInFlight: MIB - 1 })).rejects.toThrow(
      /`maxBodyBytesInFlight` to be an integer from maxBodyBytes \(1048576\)/,
    );
  });
});
