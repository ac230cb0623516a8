import { type RunningServer, startServer } from '@aqm/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, neverEndingBody, uniqueName } from './helpers.js';

describe('a client that never finishes its request body (slowloris)', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startServer({ apiKeys: [{ key: 'k', projectId: 'p' }], requestTimeoutMs: 300 });
  });
  afterAll(() => srv.close());

  it('is answered 408 with the error envelope and its connection closed; nothing is created', async () => {
    const name = uniqueName('slow');
    const answer = await neverEndingBody(
      srv.port,
      `POST /api/applications HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\ncontent-type: application/json\r\n` +
        'transfer-encoding: chunked\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      success: false,
      message: 'The request was not received in time',
    });
    const call = caller(srv.url, 'k');
    const list = await call('GET', `/applications?search=${name}`);
    expect(list.body.pagination.total).toBe(0);
    // The server still serves whole requests.
    expect((await call('POST', '/applications', { json: { name } })).status).toBe(200);
  });

  it('refuses a requestTimeoutMs that is not a positive integer, naming it', async () => {
    await expect(
      startServer({ apiKeys: [{ key: 'k', projectId: 'p' }], requestTimeoutMs: 0 }),
    ).rejects.toThrow(/options\.requestTimeoutMs must be an integer from 1 to 3600000/);
  });
});
