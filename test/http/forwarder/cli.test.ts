import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../otel/helpers/service.js';
import { waitFor } from '../otel/helpers/wait.js';
import {
  killForwarderProcesses,
  spawnForwarder,
  startForwarderProcess,
} from './helpers/forwarder-process.js';
import { llmTraceSpans, postOtlp, protoBody } from './helpers/otlp-bodies.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService('forwarder-cli');
});
afterEach(killForwarderProcesses);
afterAll(async () => {
  await service?.close();
});

describe('aqm-forwarder (the bin)', () => {
  it('starts from the environment, logs one line with its address, and delivers what it holds on SIGTERM', async () => {
    const name = `cli-${randomUUID()}`;
    const { child, output, url } = await startForwarderProcess(['--port', '0', '--trace-idle-ms', '600000'], {
      AQM_API_KEY: service.apiKey,
      AQM_BASE_URL: service.srv.url,
      AQM_APPLICATION_NAME: name,
    });
    expect(output.stdout.trim().split('\n')).toHaveLength(1);

    // Only the chat span: the trace stays open until the forwarder is told to stop.
    const { traceId, spans } = llmTraceSpans('cli question?', 'cli answer.');
    expect((await postOtlp(url, protoBody(spans.slice(0, 1)))).status).toBe(200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(output.stdout).toContain('received SIGTERM');
    expect(output.stdout).toContain('stopped (1 traces delivered, 0 dropped)');
    expect(output.stderr).toBe('');
    expect(output.stdout + output.stderr).not.toContain(service.apiKey);

    const [application] = (await service.client.applications.list({ search: name })).data;
    expect(application?.name).toBe(name);
    expect((await service.client.traces.get(application?.id as string, traceId)).prompt).toBe(
      'cli question?',
    );
  });

  it('exits 1 with a clear message when the configuration is missing or unsafe, and 2 on a bad flag', async () => {
    const missing = spawnForwarder(['--port', '0'], {
      AQM_API_KEY: service.apiKey,
      AQM_BASE_URL: service.srv.url,
    });
    expect((await once(missing.child, 'exit'))[0]).toBe(1);
    expect(missing.output.stderr).toBe(
      'aqm-forwarder: Missing configuration:\n' +
        '  - the application: --application-id/--application-name or AQM_APPLICATION_ID/AQM_APPLICATION_NAME ' +
        '(or --application-from-resource)\nRun aqm-forwarder --help for the options.\n',
    );

    // Nothing set at all: every missing setting in one message, in the terms of the command line.
    const nothing = spawnForwarder([], {});
    expect((await once(nothing.child, 'exit'))[0]).toBe(1);
    expect(nothing.output.stderr).toContain('AQM_API_KEY environment variable');
    expect(nothing.output.stderr).toContain('--base-url or AQM_BASE_URL');
    expect(nothing.output.stderr).toContain(
      '--application-id/--application-name or AQM_APPLICATION_ID/AQM_APPLICATION_NAME',
    );
    expect(nothing.output.stderr).not.toMatch(/`apiKey`|`baseUrl`|`applicationId`/);

    const open = spawnForwarder(['--port', '0', '--host', '0.0.0.0'], {
      AQM_API_KEY: service.apiKey,
      AQM_BASE_URL: service.srv.url,
      AQM_APPLICATION_ID: randomUUID(),
    });
    expect((await once(open.child, 'exit'))[0]).toBe(1);
    expect(open.output.stderr).toMatch(/Refusing to listen on 0\.0\.0\.0/);
    expect(open.output.stderr).not.toContain(service.apiKey);

    const badFlag = spawnForwarder(['--api-key', 'on-the-command-line'], {});
    expect((await once(badFlag.child, 'exit'))[0]).toBe(2);
    expect(badFlag.output.stderr).toMatch(/Run aqm-forwarder --help/);
  });

  it('says at start-up, before any trace, that the key or the application id is wrong', async () => {
    const wrongKey = spawnForwarder(['--port', '0'], {
      AQM_API_KEY: 'not-the-key-0123456789',
      AQM_BASE_URL: service.srv.url,
      AQM_APPLICATION_ID: await service.createApp('forwarder-startup-check'),
    });
    await waitFor(() => wrongKey.output.stderr.includes('(401)'), 'the 401 of the start-up check');
    expect(wrongKey.output.stderr).toContain('check AQM_API_KEY');
    expect(wrongKey.output.stderr).not.toContain('not-the-key-0123456789');

    const unknownId = randomUUID();
    const wrongId = spawnForwarder(['--port', '0'], {
      AQM_API_KEY: service.apiKey,
      AQM_BASE_URL: service.srv.url,
      AQM_APPLICATION_ID: unknownId,
    });
    await waitFor(() => wrongId.output.stderr.includes(unknownId), 'the 404 of the start-up check');
    expect(wrongId.output.stderr).toContain(`The service does not know application ${unknownId}`);
    expect(wrongId.output.stdout).toContain('aqm-forwarder listening on');
  });

  it('prints a refused setting with its control characters made visible', async () => {
    const { child, output } = spawnForwarder(['--port', '0'], {
      AQM_API_KEY: service.apiKey,
      AQM_BASE_URL: 'not a url\u001b]0;owned\u0007',
      AQM_APPLICATION_ID: randomUUID(),
    });
    expect((await once(child, 'exit'))[0]).toBe(1);
    expect(output.stderr).toContain('AQM_BASE_URL');
    expect(output.stderr).toContain('not a url\\u001b]0;owned\\u0007');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no raw control character may reach stderr
    expect(output.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it("prints the service's error text with its control characters made visible", async () => {
    // A service (or something posing as it) whose error body carries terminal escape sequences.
    const fake = createServer((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: 'Forbidden', message: '\u001b[31mno access\u001b[0m\u001b]0;owned\u0007' }),
      );
    });
    fake.listen(0, '127.0.0.1');
    await once(fake, 'listening');
    try {
      const { port } = fake.address() as AddressInfo;
      const { output } = spawnForwarder(['--port', '0'], {
        AQM_API_KEY: 'fake-key-0123456789',
        AQM_BASE_URL: `http://127.0.0.1:${port}/api`,
        AQM_APPLICATION_NAME: 'escaped',
      });
      await waitFor(() => output.stderr.includes('will not be delivered'), 'the lookup failure');
      expect(output.stderr).toContain('\\u001b[31mno access\\u001b[0m\\u001b]0;owned\\u0007');
      // biome-ignore lint/suspicious/noControlCharactersInRegex: no raw control character may reach stderr
      expect(output.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    } finally {
      fake.closeAllConnections();
      fake.close();
    }
  });
});
