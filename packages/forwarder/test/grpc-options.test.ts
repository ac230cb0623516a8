import { describe, expect, it } from 'vitest';
import { parseCliArgs, USAGE } from '../src/cli-args.js';
import { resolveForwarderOptions } from '../src/resolve-options.js';

const ENV = {
  AQM_API_KEY: 'secret-upstream-key',
  AQM_BASE_URL: 'http://127.0.0.1:9/api',
  AQM_APPLICATION_ID: '0b7c1f9e-4a55-4d47-9a43-0e3f5e0a1b2c',
};

describe('the gRPC receiver options', () => {
  it('is off by default; grpcPort (or AQM_FORWARDER_GRPC_PORT) turns it on, the option winning', () => {
    const resolved = resolveForwarderOptions({}, ENV);
    expect(resolved.grpc).toBeUndefined();
    expect(resolveForwarderOptions({ grpcPort: 0 }, ENV).grpc).toEqual({ port: 0, tls: undefined });
    const env = { ...ENV, AQM_FORWARDER_GRPC_PORT: '4317' };
    expect(resolveForwarderOptions({}, env).grpc).toEqual({ port: 4317, tls: undefined });
    expect(resolveForwarderOptions({ grpcPort: 5317 }, env).grpc?.port).toBe(5317);
    // None of them reaches the pipeline's options.
    const all = resolveForwarderOptions(
      { grpcPort: 1, grpcTlsCertFile: 'c.pem', grpcTlsKeyFile: 'k.pem', grpcTlsCaFile: 'ca.pem' },
      ENV,
    );
    expect(Object.keys(all.pipelineOptions).filter((key) => key.startsWith('grpc'))).toEqual([]);
    expect(all.grpc).toMatchObject({
      port: 1,
      tls: { certFile: 'c.pem', keyFile: 'k.pem', caFile: 'ca.pem' },
    });
  });

  it('takes the TLS files from the environment', () => {
    const env = {
      ...ENV,
      AQM_FORWARDER_GRPC_PORT: '0',
      AQM_FORWARDER_GRPC_TLS_CERT_FILE: '/etc/tls/tls.crt',
      AQM_FORWARDER_GRPC_TLS_KEY_FILE: '/etc/tls/tls.key',
    };
    expect(resolveForwarderOptions({}, env).grpc).toEqual({
      port: 0,
      tls: {
        certFile: '/etc/tls/tls.crt',
        keyFile: '/etc/tls/tls.key',
        caFile: undefined,
        // How a file that cannot be read at start is named: by the variable it came from.
        labels: {
          certFile: '`grpcTlsCertFile` (from the AQM_FORWARDER_GRPC_TLS_CERT_FILE environment variable)',
          keyFile: '`grpcTlsKeyFile` (from the AQM_FORWARDER_GRPC_TLS_KEY_FILE environment variable)',
          caFile: '`grpcTlsCaFile`',
        },
      },
    });
    const keyOnly = { ...ENV, AQM_FORWARDER_GRPC_PORT: '0', AQM_FORWARDER_GRPC_TLS_KEY_FILE: '/k.pem' };
    expect(() => resolveForwarderOptions({}, keyOnly)).toThrow(
      'got only `grpcTlsKeyFile` (from the AQM_FORWARDER_GRPC_TLS_KEY_FILE environment variable): `/k.pem` (string)',
    );
  });

  it('names the bad option, what it expects and the value', () => {
    expect(() => resolveForwarderOptions({ grpcPort: '4317' as never }, ENV)).toThrow(
      new TypeError('Expected `grpcPort` to be an integer from 0 to 65535, got `4317` (string)'),
    );
    expect(() => resolveForwarderOptions({ grpcPort: 70_000 }, ENV)).toThrow(
      new RangeError('Expected `grpcPort` to be an integer from 0 to 65535, got `70000` (number)'),
    );
    expect(() => resolveForwarderOptions({ grpcPort: 1.5 }, ENV)).toThrow(TypeError);
    expect(() => resolveForwarderOptions({}, { ...ENV, AQM_FORWARDER_GRPC_PORT: '43l7' })).toThrow(
      /`grpcPort` \(from the AQM_FORWARDER_GRPC_PORT environment variable\) to be an integer from 0 to 65535, got `43l7`/,
    );
    expect(() => resolveForwarderOptions({}, { ...ENV, AQM_FORWARDER_GRPC_PORT: '99999' })).toThrow(
      RangeError,
    );
    expect(() => resolveForwarderOptions({ grpcPort: 0, grpcTlsCertFile: 'c.pem' }, ENV)).toThrow(
      new TypeError(
        'Expected both `grpcTlsCertFile` and `grpcTlsKeyFile` or neither, got only `grpcTlsCertFile`: `c.pem` (string)',
      ),
    );
    expect(() => resolveForwarderOptions({ grpcPort: 0, grpcTlsKeyFile: 'k.pem' }, ENV)).toThrow(
      /got only `grpcTlsKeyFile`/,
    );
    expect(() => resolveForwarderOptions({ grpcPort: 0, grpcTlsCaFile: 'ca.pem' }, ENV)).toThrow(
      /`grpcTlsCaFile` \(client certificates\) only with `grpcTlsCertFile` and `grpcTlsKeyFile`/,
    );
    expect(() =>
      resolveForwarderOptions({ grpcPort: 0, grpcTlsCertFile: '', grpcTlsKeyFile: 'k.pem' }, ENV),
    ).toThrow(new TypeError('Expected `grpcTlsCertFile` to be the path of a PEM file, got `` (string)'));
    expect(() =>
      resolveForwarderOptions({ grpcPort: 0, grpcTlsCertFile: 'c.pem', grpcTlsKeyFile: 7 as never }, ENV),
    ).toThrow(/`grpcTlsKeyFile` to be the path of a PEM file, got `7` \(number\)/);
    expect(() => resolveForwarderOptions({ grpcTlsCertFile: 'c.pem', grpcTlsKeyFile: 'k.pem' }, ENV)).toThrow(
      /Expected `grpcPort` with `grpcTlsCertFile`/,
    );
  });

  it('keeps the non-loopback rule for the host both receivers share', () => {
    expect(() => resolveForwarderOptions({ host: '0.0.0.0', grpcPort: 4317 }, ENV)).toThrow(
      /Refusing to listen on 0\.0\.0\.0/,
    );
  });

  it('has flags on the command line, named in the usage', () => {
    expect(
      parseCliArgs([
        '--grpc-port',
        '4317',
        '--grpc-tls-cert-file',
        'c.pem',
        '--grpc-tls-key-file',
        'k.pem',
        '--grpc-tls-ca-file',
        'ca.pem',
      ]),
    ).toEqual({
      kind: 'run',
      options: { grpcPort: 4317, grpcTlsCertFile: 'c.pem', grpcTlsKeyFile: 'k.pem', grpcTlsCaFile: 'ca.pem' },
    });
    expect(() => parseCliArgs(['--grpc-port', 'x'])).toThrow('--grpc-port expects a whole number, got "x"');
    for (const name of [
      '--grpc-port',
      '--grpc-tls-cert-file',
      '--grpc-tls-key-file',
      '--grpc-tls-ca-file',
      'AQM_FORWARDER_GRPC_PORT',
      'AQM_FORWARDER_GRPC_TLS_CERT_FILE',
      'AQM_FORWARDER_GRPC_TLS_KEY_FILE',
      'AQM_FORWARDER_GRPC_TLS_CA_FILE',
    ])
      expect(USAGE).toContain(name);
  });
});
