import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentials, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../otel/helpers/wait.js';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import { grpcExport } from './helpers/grpc-export.js';
import { llmTraceSpans, protoBody } from './helpers/otlp-bodies.js';
import { selfSigned } from './helpers/self-signed.js';

// TLS of the gRPC receiver with certificates made here by openssl (node:crypto makes no X.509
// certificate): a self-signed server certificate for 127.0.0.1 and localhost, and a self-signed
// client certificate for mutual TLS.

let stack: ForwarderStack;
let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aqm-grpc-tls-'));
  selfSigned(dir, 'server', 'IP:127.0.0.1,DNS:localhost');
  selfSigned(dir, 'client', 'DNS:sender');
  stack = await startForwarderStack('forwarder-grpc-tls');
});
afterAll(async () => {
  await stack?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const serverTls = () => ({ grpcTlsCertFile: file('server.crt'), grpcTlsKeyFile: file('server.key') });

describe('the gRPC receiver over TLS', () => {
  it('serves TLS with the certificate files: a client trusting it delivers, a plaintext one cannot', async () => {
    const forwarder = await stack.forwarder({ grpcPort: 0, rootGraceMs: 0, ...serverTls() });
    expect(forwarder.grpcUrl).toBe(`https://127.0.0.1:${forwarder.grpcPort}`);
    const address = `127.0.0.1:${forwarder.grpcPort}`;
    const trace = llmTraceSpans('tls question?', 'tls answer.');
    const tls = credentials.createSsl(readFileSync(file('server.crt')));
    expect(await grpcExport(address, protoBody(trace.spans), { credentials: tls })).toEqual({
      ok: true,
      response: Buffer.alloc(0),
    });
    await waitFor(() => forwarder.stats().pipeline.exportedTraces === 1, 'the trace delivered');
    expect((await stack.service.client.traces.get(stack.applicationId, trace.traceId)).prompt).toBe(
      'tls question?',
    );
    const plain = await grpcExport(address, protoBody(trace.spans));
    expect(plain.ok || plain.error.code).toBe(status.UNAVAILABLE);
    // A client that does not trust the certificate gets no answer either.
    const untrusting = await grpcExport(address, protoBody(trace.spans), {
      credentials: credentials.createSsl(readFileSync(file('client.crt'))),
    });
    expect(untrusting.ok || untrusting.error.code).toBe(status.UNAVAILABLE);
    expect(forwarder.stats().receivedSpans).toBe(3);
  });

  it('asks for a client certificate signed by grpcTlsCaFile: without one, no call gets through', async () => {
    const forwarder = await stack.forwarder({
      grpcPort: 0,
      grpcTlsCaFile: file('client.crt'),
      ...serverTls(),
    });
    const address = `127.0.0.1:${forwarder.grpcPort}`;
    const ca = readFileSync(file('server.crt'));
    const body = protoBody(llmTraceSpans('mtls?', 'mtls.').spans);
    const anonymous = await grpcExport(address, body, { credentials: credentials.createSsl(ca) });
    expect(anonymous.ok).toBe(false);
    expect(forwarder.stats().receivedSpans).toBe(0);
    const withCertificate = credentials.createSsl(
      ca,
      readFileSync(file('client.key')),
      readFileSync(file('client.crt')),
    );
    expect((await grpcExport(address, body, { credentials: withCertificate })).ok).toBe(true);
    expect(forwarder.stats().receivedSpans).toBe(3);
  });

  it('refuses to start when a TLS file cannot be read, naming the option and the path', async () => {
    await expect(
      stack.forwarder({
        grpcPort: 0,
        grpcTlsCertFile: file('missing.crt'),
        grpcTlsKeyFile: file('server.key'),
      }),
    ).rejects.toThrow(/^Cannot read `grpcTlsCertFile`, ".*missing\.crt": ENOENT/);
  });

  it('reads the files through links, as a Kubernetes Secret mounts them', async () => {
    // A Secret's volume: `tls.crt -> ..data/tls.crt`, `..data -> ..2026_11_28_...` (a folder).
    const mount = file('secret');
    mkdirSync(join(mount, '..2026_11_28'), { recursive: true });
    for (const name of ['crt', 'key'])
      symlinkSync(file(`server.${name}`), join(mount, '..2026_11_28', `tls.${name}`));
    symlinkSync('..2026_11_28', join(mount, '..data'));
    for (const name of ['crt', 'key']) symlinkSync(join('..data', `tls.${name}`), join(mount, `tls.${name}`));
    const forwarder = await stack.forwarder({
      grpcPort: 0,
      grpcTlsCertFile: join(mount, 'tls.crt'),
      grpcTlsKeyFile: join(mount, 'tls.key'),
    });
    const tls = credentials.createSsl(readFileSync(file('server.crt')));
    const body = protoBody(llmTraceSpans('linked?', 'linked.').spans);
    expect((await grpcExport(`127.0.0.1:${forwarder.grpcPort}`, body, { credentials: tls })).ok).toBe(true);
  });

  it('refuses a FIFO or a folder as a TLS file at once, rather than waiting on it', async () => {
    const fifo = file('cert.fifo');
    execFileSync('mkfifo', [fifo]);
    // A read of a FIFO without a writer would never end: the start would hang.
    await expect(
      stack.forwarder({ grpcPort: 0, grpcTlsCertFile: fifo, grpcTlsKeyFile: file('server.key') }),
    ).rejects.toThrow(/^Cannot read `grpcTlsCertFile`, ".*cert\.fifo": ENOTREG/);
    await expect(stack.forwarder({ grpcPort: 0, ...serverTls(), grpcTlsKeyFile: dir })).rejects.toThrow(
      /^Cannot read `grpcTlsKeyFile`, ".*": ENOTREG/,
    );
  });
});
