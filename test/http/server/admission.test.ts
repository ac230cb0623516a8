import { connect, type Socket } from 'node:net';
import { AqmClient } from '@aqm/client';
import { type RunningServer, startServer } from '@aqm/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, caller, makeTrace, uniqueName } from './helpers.js';

/** Calls `send` until `done` holds for its answer (bounded), and returns that answer. */
async function until(send: () => Promise<Answer>, done: (answer: Answer) => boolean): Promise<Answer> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await send();
    if (done(answer) || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('admission per project (maxRequestsInProgress)', () => {
  let srv: RunningServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    srv = await startServer({
      apiKeys: [
        { key: 'busy-key', projectId: 'busy' },
        { key: 'other-key', projectId: 'other' },
      ],
      maxRequestsInProgress: 1,
    });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await srv?.close();
  });

  /**
   * Holds the busy project's one share with a request whose body is still coming, and waits
   * until its next request is refused.
   */
  async function busyProjectAtItsShare(): Promise<{
    socket: Socket;
    busy: ReturnType<typeof caller>;
    refused: Answer;
  }> {
    const socket = connect(srv.port, '127.0.0.1');
    sockets.push(socket);
    socket.write(
      'POST /api/applications HTTP/1.1\r\nHost: x\r\nx-api-key: busy-key\r\n' +
        'content-type: application/json\r\ncontent-length: 100\r\n\r\n{"name":',
    );
    const busy = caller(srv.url, 'busy-key');
    const refused = await until(
      () => busy('GET', '/applications'),
      (answer) => answer.status === 429,
    );
    return { socket, busy, refused };
  }

  it("answers a project past its share 429 with Retry-After, admits another project, and counts a closed connection's request as ended", async () => {
    // A request whose body is still coming is in progress: it holds the busy project's share.
    const { socket, busy, refused } = await busyProjectAtItsShare();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toEqual({
      success: false,
      message: 'Too many requests in progress for this project: retry after 1 s',
    });
    // Refused before its body is read: a body that is not JSON is not looked at.
    expect((await busy('POST', '/applications', { raw: 'not json' })).status).toBe(429);

    // Another project is admitted while the busy one is at its share.
    expect((await caller(srv.url, 'other-key')('GET', '/applications')).status).toBe(200);

    // The client goes away: its request ends, and the busy project is admitted again.
    socket.destroy();
    const admitted = await until(
      () => busy('GET', '/applications'),
      (answer) => answer.status === 200,
    );
    expect(admitted.status).toBe(200);
  });

  it('is retried by @aqm/client after its Retry-After: the submission is stored once the project has room', async () => {
    const client = new AqmClient({ apiKey: 'busy-key', baseUrl: srv.url });
    const app = await client.applications.create({ name: uniqueName('admitted') });
    const { socket, busy, refused } = await busyProjectAtItsShare();
    expect(refused.status).toBe(429);
    srv.resetRequestCounts();
    const trace = makeTrace(new Date(), 10);
    const submitted = client.evaluations.submit(app.id, { traces: [trace] });
    // The first attempt is refused (the share is taken), then the share is freed.
    const deadline = Date.now() + 10_000;
    while (srv.requestCount('evaluations.submit') === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    socket.destroy();
    expect(await submitted).toEqual({ accepted: 1, traceIds: [trace.traceId] });
    expect(srv.requestCount('evaluations.submit')).toBe(2);
    expect((await busy('GET', `/applications/${app.id}/traces/${trace.traceId}`)).status).toBe(200);
  });

  it('keeps a request whose client hung up after sending its body in progress until its work is done', async () => {
    const busy = caller(srv.url, 'busy-key');
    const app = (await busy('POST', '/applications', { json: { name: uniqueName('hung-up') } })).body.data;
    const metrics = (await busy('GET', '/metrics/eval')).body.data.map((m: { name: string }) => ({
      type: m.name,
    }));
    await busy('PUT', `/applications/${app.id}/monitoring`, { json: { metrics } });
    // Scored by every metric: work that outlasts the connection.
    const trace = makeTrace(new Date(), 10, { prompt: 'a@b.co '.repeat(200_000) });
    const body = JSON.stringify({ traces: [trace] });
    const socket = connect(srv.port, '127.0.0.1');
    sockets.push(socket);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.end(
      `POST /api/applications/${app.id}/evaluations HTTP/1.1\r\nHost: x\r\nx-api-key: busy-key\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      () => socket.destroy(),
    );
    await new Promise((resolve) => socket.once('close', resolve));
    // The hung-up request still holds the project's share while it is parsed, scored and stored.
    expect((await busy('GET', '/applications')).status).toBe(429);
    const admitted = await until(
      () => busy('GET', `/applications/${app.id}/traces/${trace.traceId}`),
      (answer) => answer.status !== 429,
    );
    expect(admitted.status).toBe(200);
  });
});
