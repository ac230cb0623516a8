import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { status } from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../otel/helpers/service.js';
import {
  killForwarderProcesses,
  serviceEnv,
  spawnForwarder,
  startForwarderProcess,
} from './helpers/forwarder-process.js';
import { grpcExport } from './helpers/grpc-export.js';
import { llmTraceSpans, protoBody } from './helpers/otlp-bodies.js';

let service: TestService;
let applicationId: string;
beforeAll(async () => {
  service = await startTestService('forwarder-cli-grpc');
  applicationId = await service.createApp('forwarder-cli-grpc');
});
afterEach(killForwarderProcesses);
afterAll(async () => {
  await service?.close();
});

/** The gRPC address of the start lines: `host:port`. */
function grpcAddressOf(stdout: string): string {
  const address = /OTLP\/gRPC on http:\/\/(127\.0\.0\.1:\d+) /.exec(stdout)?.[1];
  expect(address, stdout).toBeDefined();
  return address as string;
}

describe('aqm-forwarder --grpc-port', () => {
  it('prints the gRPC address after the HTTP one, takes the token as metadata, and delivers on SIGTERM', async () => {
    const token = `cli-grpc-${randomUUID()}`;
    const { child, output } = await startForwarderProcess(['--port', '0', '--grpc-port', '0'], {
      ...serviceEnv(service, applicationId),
      AQM_FORWARDER_TOKENS: token,
    });
    const lines = output.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^aqm-forwarder listening on http:\/\/127\.0\.0\.1:\d+ \(OTLP\/HTTP: /);
    expect(lines[1]).toMatch(
      /^aqm-forwarder OTLP\/gRPC on http:\/\/127\.0\.0\.1:\d+ \(TraceService\/Export, LogsService\/Export\)$/,
    );
    const address = grpcAddressOf(output.stdout);
    const { traceId, spans } = llmTraceSpans('cli grpc question?', 'cli grpc answer.');
    const refused = await grpcExport(address, protoBody(spans));
    expect(refused.ok || refused.error.code).toBe(status.UNAUTHENTICATED);
    expect((await grpcExport(address, protoBody(spans), { token })).ok).toBe(true);
    child.kill('SIGTERM');
    expect((await once(child, 'exit'))[0]).toBe(0);
    expect(output.stdout).toContain('stopped (1 traces delivered, 0 dropped)');
    expect(output.stderr).toBe('');
    expect((await service.client.traces.get(applicationId, traceId)).prompt).toBe('cli grpc question?');
  });

  it('takes the port from AQM_FORWARDER_GRPC_PORT, and refuses a bad one (exit 1) or a bad flag (exit 2)', async () => {
    const fromEnv = await startForwarderProcess(['--port', '0'], {
      ...serviceEnv(service, applicationId),
      AQM_FORWARDER_GRPC_PORT: '0',
    });
    expect((await grpcExport(grpcAddressOf(fromEnv.output.stdout), Buffer.alloc(0))).ok).toBe(true);

    const badEnv = spawnForwarder(['--port', '0'], {
      ...serviceEnv(service, applicationId),
      AQM_FORWARDER_GRPC_PORT: '4317x',
    });
    expect((await once(badEnv.child, 'exit'))[0]).toBe(1);
    expect(badEnv.output.stderr).toBe(
      'aqm-forwarder: Expected `grpcPort` (from the AQM_FORWARDER_GRPC_PORT environment variable) to be an integer from 0 to 65535, got `4317x` (string)\n',
    );
    const badFlag = spawnForwarder(['--grpc-port', 'all'], serviceEnv(service, applicationId));
    expect((await once(badFlag.child, 'exit'))[0]).toBe(2);
    expect(badFlag.output.stderr).toMatch(/^aqm-forwarder: --grpc-port expects a whole number, got "all"/);
    const halfTls = spawnForwarder(['--port', '0', '--grpc-port', '0', '--grpc-tls-key-file', 'k.pem'], {
      ...serviceEnv(service, applicationId),
    });
    expect((await once(halfTls.child, 'exit'))[0]).toBe(1);
    expect(halfTls.output.stderr).toContain(
      'Expected both `grpcTlsCertFile` and `grpcTlsKeyFile` or neither',
    );
  });
});
