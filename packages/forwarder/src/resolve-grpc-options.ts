import type { ForwarderOptions } from './forwarder-options.js';
import { describe, type Env, fromEnv, label } from './option-values.js';

/** The OTLP/gRPC receiver's settings, checked; `undefined` when it is off. */
export interface GrpcOptions {
  port: number;
  /** Paths of PEM files: the server's certificate and key, and the CA that client certificates must chain to. */
  tls: { certFile: string; keyFile: string; caFile: string | undefined } | undefined;
}

function port(options: ForwarderOptions, env: Env): number | undefined {
  const { value, envVar } = fromEnv(options.grpcPort, env, 'AQM_FORWARDER_GRPC_PORT');
  if (value === undefined) return undefined;
  // From the environment, digits only: `4317abc` or ` 4317` is a mistake, not a port.
  const parsed = envVar !== undefined && /^\d+$/.test(value as string) ? Number(value) : value;
  if (typeof parsed !== 'number' || !Number.isInteger(parsed)) {
    throw new TypeError(
      `Expected ${label('grpcPort', envVar)} to be an integer from 0 to 65535, got ${describe(value)}`,
    );
  }
  if (parsed < 0 || parsed > 65_535) {
    throw new RangeError(
      `Expected ${label('grpcPort', envVar)} to be an integer from 0 to 65535, got ${describe(value)}`,
    );
  }
  return parsed;
}

function file(
  name: 'grpcTlsCertFile' | 'grpcTlsKeyFile' | 'grpcTlsCaFile',
  variable: string,
  options: ForwarderOptions,
  env: Env,
): string | undefined {
  const { value, envVar } = fromEnv(options[name], env, variable);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(
      `Expected ${label(name, envVar)} to be the path of a PEM file, got ${describe(value)}`,
    );
  }
  return value;
}

/**
 * Checks the options of the OTLP/gRPC receiver (`grpcPort`, `grpcTls*File`, or their
 * `AQM_FORWARDER_GRPC_*` variables). Throws a `TypeError`/`RangeError` naming the first bad one.
 * The files are read when the forwarder starts.
 *
 * @example
 * resolveGrpcOptions({ grpcPort: 4317 }, process.env) // { port: 4317, tls: undefined }
 */
export function resolveGrpcOptions(options: ForwarderOptions, env: Env): GrpcOptions | undefined {
  const grpcPort = port(options, env);
  const certFile = file('grpcTlsCertFile', 'AQM_FORWARDER_GRPC_TLS_CERT_FILE', options, env);
  const keyFile = file('grpcTlsKeyFile', 'AQM_FORWARDER_GRPC_TLS_KEY_FILE', options, env);
  const caFile = file('grpcTlsCaFile', 'AQM_FORWARDER_GRPC_TLS_CA_FILE', options, env);
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new TypeError(
      `Expected both \`grpcTlsCertFile\` and \`grpcTlsKeyFile\` or neither, got only ${
        certFile === undefined ? '`grpcTlsKeyFile`' : '`grpcTlsCertFile`'
      }`,
    );
  }
  if (caFile !== undefined && certFile === undefined) {
    throw new TypeError(
      'Expected `grpcTlsCaFile` (client certificates) only with `grpcTlsCertFile` and `grpcTlsKeyFile`, got it alone',
    );
  }
  if (grpcPort === undefined) {
    if (certFile !== undefined || caFile !== undefined) {
      throw new TypeError(
        'Expected `grpcPort` with `grpcTlsCertFile`: TLS is for the gRPC receiver, which is off',
      );
    }
    return undefined;
  }
  return {
    port: grpcPort,
    tls: certFile === undefined || keyFile === undefined ? undefined : { certFile, keyFile, caFile },
  };
}
