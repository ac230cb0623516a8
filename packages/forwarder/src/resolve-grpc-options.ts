import type { ForwarderOptions } from './forwarder-options.js';
import { describe, type Env, fromEnv, label } from './option-values.js';

/** The OTLP/gRPC receiver's settings, checked; `undefined` when it is off. */
export interface GrpcOptions {
  port: number;
  /** PEM files: the server's certificate and key, and the CA client certificates must chain to. */
  tls: GrpcTls | undefined;
}

/** The TLS files of the gRPC receiver, and how to name each in a message (option, or variable). */
export interface GrpcTls {
  certFile: string;
  keyFile: string;
  caFile: string | undefined;
  labels: { certFile: string; keyFile: string; caFile: string };
}

function port(options: ForwarderOptions, env: Env): number | undefined {
  const { value, envVar } = fromEnv(options.grpcPort, env, 'AQM_FORWARDER_GRPC_PORT');
  if (value === undefined) return undefined;
  // From the environment, digits only: `4317abc` or ` 4317` is a mistake, not a port.
  const parsed = envVar !== undefined && /^\d+$/.test(value as string) ? Number(value) : value;
  const expected = `Expected ${label('grpcPort', envVar)} to be an integer from 0 to 65535, got ${describe(value)}`;
  if (typeof parsed !== 'number' || !Number.isInteger(parsed)) throw new TypeError(expected);
  if (parsed < 0 || parsed > 65_535) throw new RangeError(expected);
  return parsed;
}

function file(
  name: 'grpcTlsCertFile' | 'grpcTlsKeyFile' | 'grpcTlsCaFile',
  variable: string,
  options: ForwarderOptions,
  env: Env,
): { path: string | undefined; label: string } {
  const { value, envVar } = fromEnv(options[name], env, variable);
  const named = label(name, envVar);
  if (value === undefined) return { path: undefined, label: named };
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`Expected ${named} to be the path of a PEM file, got ${describe(value)}`);
  }
  return { path: value, label: named };
}

/**
 * Checks the options of the OTLP/gRPC receiver: `grpcPort`, `grpcTlsCertFile`, `grpcTlsKeyFile`
 * and `grpcTlsCaFile`, or their variables (`AQM_FORWARDER_GRPC_PORT`, ..._TLS_CERT_FILE,
 * ..._TLS_KEY_FILE, ..._TLS_CA_FILE). Throws a `TypeError`/`RangeError` naming the first bad one.
 * The files are read when the forwarder starts.
 *
 * @example
 * resolveGrpcOptions({ grpcPort: 4317 }, process.env) // { port: 4317, tls: undefined }
 */
export function resolveGrpcOptions(options: ForwarderOptions, env: Env): GrpcOptions | undefined {
  const grpcPort = port(options, env);
  const cert = file('grpcTlsCertFile', 'AQM_FORWARDER_GRPC_TLS_CERT_FILE', options, env);
  const key = file('grpcTlsKeyFile', 'AQM_FORWARDER_GRPC_TLS_KEY_FILE', options, env);
  const ca = file('grpcTlsCaFile', 'AQM_FORWARDER_GRPC_TLS_CA_FILE', options, env);
  if ((cert.path === undefined) !== (key.path === undefined)) {
    const given = cert.path === undefined ? key : cert;
    throw new TypeError(
      `Expected both \`grpcTlsCertFile\` and \`grpcTlsKeyFile\` or neither, got only ${given.label}: ${describe(given.path)}`,
    );
  }
  if (ca.path !== undefined && cert.path === undefined) {
    throw new TypeError(
      `Expected ${ca.label} (client certificates) only with \`grpcTlsCertFile\` and \`grpcTlsKeyFile\`, got it alone: ${describe(ca.path)}`,
    );
  }
  if (grpcPort === undefined) {
    if (cert.path !== undefined) {
      throw new TypeError(
        `Expected \`grpcPort\` with ${cert.label}: TLS is for the gRPC receiver, which is off without it`,
      );
    }
    return undefined;
  }
  if (cert.path === undefined || key.path === undefined) return { port: grpcPort, tls: undefined };
  return {
    port: grpcPort,
    tls: {
      certFile: cert.path,
      keyFile: key.path,
      caFile: ca.path,
      labels: { certFile: cert.label, keyFile: key.label, caFile: ca.label },
    },
  };
}
