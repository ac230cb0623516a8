import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../src/io.js';
import { runCli } from '../src/run-cli.js';

const APP = '6f1c2b3a-0000-4000-8000-000000000001';
const TRACE = '0af7651916cd43dd8448eb211c80319c';

/** A trace as the spec allows the real service to send it: no `evaluationResults` when none exist. */
const TRACE_WITHOUT_RESULTS = {
  traceId: TRACE,
  applicationId: APP,
  startTime: '2026-11-26T10:00:00.000Z',
  endTime: '2026-11-26T10:00:01.000Z',
  spanCount: 0,
  status: 'success',
  prompt: 'Where is my order?',
  response: 'It ships today.',
  spans: [],
};

describe('aqm against a service that leaves out what the spec makes conditional', () => {
  it('traces get shows a trace without evaluationResults, and says it has no scores', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, data: TRACE_WITHOUT_RESULTS }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      let out = '';
      let err = '';
      const io: CliIo = {
        stdout: { write: (s: string) => (out += s) },
        stderr: { write: (s: string) => (err += s) },
        env: { AQM_API_KEY: 'cli-test-key-0123456789', AQM_BASE_URL: `http://127.0.0.1:${port}/api` },
      };
      expect(await runCli(['traces', 'get', APP, TRACE], io), err).toBe(0);
      expect(out).toContain('Where is my order?');
      expect(err).toBe('No evaluation results.\n');
    } finally {
      server.close();
    }
  });
});
