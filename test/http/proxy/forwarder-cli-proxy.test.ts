import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runAqm } from '../cli/helpers.js';
import {
  killForwarderProcesses,
  serviceEnv,
  startForwarderProcess,
} from '../forwarder/helpers/forwarder-process.js';
import { llmTraceSpans, postOtlp, protoBody } from '../forwarder/helpers/otlp-bodies.js';
import { startTestService, type TestService } from '../otel/helpers/service.js';
import { closedPort, hostPortOf, type LocalProxy, startLocalProxy } from './helpers/local-proxy.js';

let service: TestService;
let proxy: LocalProxy;
let target: string;
const credentials = { user: 'fwd', password: 'fwd-proxy-secret' };
beforeAll(async () => {
  service = await startTestService('proxy-bins');
  proxy = await startLocalProxy({ credentials });
  target = hostPortOf(service.srv.url);
});
afterEach(killForwarderProcesses);
afterAll(async () => {
  await proxy?.close();
  await service?.close();
});

describe('aqm-forwarder behind a proxy named by HTTP_PROXY', () => {
  it('looks up its application and delivers traces through the proxy', async () => {
    const name = `fwd-proxy-${randomUUID()}`;
    const before = proxy.requestsTo(target).length;
    const { child, output, url } = await startForwarderProcess(['--port', '0'], {
      AQM_API_KEY: service.apiKey,
      AQM_BASE_URL: service.srv.url,
      AQM_APPLICATION_NAME: name,
      HTTP_PROXY: proxy.url,
    });
    const { traceId, spans } = llmTraceSpans('proxied question?', 'proxied answer.');
    expect((await postOtlp(url, protoBody(spans))).status).toBe(200);
    child.kill('SIGTERM');
    expect((await once(child, 'exit'))[0]).toBe(0);
    expect(output.stdout).toContain('stopped (1 traces delivered, 0 dropped)');
    expect(output.stderr).toBe('');
    const seen = proxy.requestsTo(target).slice(before);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.every((r) => r.method === 'CONNECT' && r.allowed)).toBe(true);
    const [application] = (await service.client.applications.list({ search: name })).data;
    expect((await service.client.traces.get(application?.id as string, traceId)).prompt).toBe(
      'proxied question?',
    );
    expect(output.stdout + output.stderr).not.toContain(credentials.password);
  });

  it('a malformed HTTP_PROXY: one warning naming it (not its password); traces go out directly', async () => {
    const applicationId = await service.createApp('fwd-bad-proxy');
    const { child, output, url } = await startForwarderProcess(['--port', '0'], {
      ...serviceEnv(service, applicationId),
      HTTP_PROXY: 'http://fwd:pw-in-bad-url@[bad',
    });
    expect((await postOtlp(url, protoBody(llmTraceSpans('q', 'a').spans))).status).toBe(200);
    child.kill('SIGTERM');
    expect((await once(child, 'exit'))[0]).toBe(0);
    expect(output.stdout).toContain('stopped (1 traces delivered, 0 dropped)');
    const warnings = output.stderr.split('\n').filter((line) => line.includes('HTTP_PROXY'));
    expect(warnings, output.stderr).toHaveLength(1);
    expect(output.stderr).not.toContain('pw-in-bad-url');
  });

  it('NO_PROXY naming the service: delivered directly', async () => {
    const applicationId = await service.createApp('fwd-no-proxy');
    const before = proxy.requests.length;
    const { child, output, url } = await startForwarderProcess(['--port', '0'], {
      ...serviceEnv(service, applicationId),
      HTTP_PROXY: proxy.url,
      NO_PROXY: target,
    });
    expect((await postOtlp(url, protoBody(llmTraceSpans('q', 'a').spans))).status).toBe(200);
    child.kill('SIGTERM');
    expect((await once(child, 'exit'))[0]).toBe(0);
    expect(output.stdout).toContain('stopped (1 traces delivered, 0 dropped)');
    expect(proxy.requests.length).toBe(before);
  });
});

describe('aqm (the CLI) behind a proxy named by HTTPS_PROXY / HTTP_PROXY', () => {
  const env = () => ({
    PATH: process.env.PATH ?? '',
    AQM_API_KEY: service.apiKey,
    AQM_BASE_URL: service.srv.url,
  });

  it('a command goes through the proxy', async () => {
    const before = proxy.requestsTo(target).length;
    const run = await runAqm(['metrics', 'eval'], { ...env(), HTTP_PROXY: proxy.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const seen = proxy.requestsTo(target).slice(before);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.every((r) => r.method === 'CONNECT' && r.allowed)).toBe(true);
  });

  it('lowercase no_proxy=* : the command goes out directly', async () => {
    const before = proxy.requests.length;
    const run = await runAqm(['metrics', 'eval'], { ...env(), http_proxy: proxy.url, no_proxy: '*' });
    expect(run.code, run.stderr).toBe(0);
    expect(proxy.requests.length).toBe(before);
  });

  it('a malformed HTTPS_PROXY: exit 2, "Invalid configuration" naming it, not its password', async () => {
    const run = await runAqm(['metrics', 'eval'], { ...env(), HTTPS_PROXY: 'http://fwd:pw-in-bad-url@[bad' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^aqm: Invalid configuration: HTTPS_PROXY must be a proxy URL/);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toContain('pw-in-bad-url');
  });

  it('the proxy down: exit 1, one line naming the proxy variable and its address, no password', async () => {
    const port = await closedPort();
    const run = await runAqm(['metrics', 'eval'], {
      ...env(),
      HTTP_PROXY: `http://fwd:fwd-proxy-secret@127.0.0.1:${port}`,
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd().split('\n'), run.stderr).toHaveLength(1);
    expect(run.stderr).toContain('HTTP_PROXY');
    expect(run.stderr).toContain(`127.0.0.1:${port}`);
    expect(run.stderr).toContain('ECONNREFUSED');
    console.info(`[cli, proxy down] ${run.stderr.trimEnd()}`);
    expect(run.stderr).not.toContain('fwd-proxy-secret');
  });

  it('407 from the proxy: exit 1, one line saying the proxy wants other credentials, no password', async () => {
    const run = await runAqm(['metrics', 'eval'], {
      ...env(),
      HTTP_PROXY: `http://fwd:not-the-password@127.0.0.1:${proxy.port}`,
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd().split('\n'), run.stderr).toHaveLength(1);
    expect(run.stderr).toContain('407');
    console.info(`[cli, 407] ${run.stderr.trimEnd()}`);
    expect(run.stderr).toContain('HTTP_PROXY');
    expect(run.stderr).not.toContain('not-the-password');
    expect(run.stderr).not.toContain(service.apiKey);
  });
});
