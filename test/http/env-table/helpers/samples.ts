import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Trace } from '@aqm/wire';
import { selfSigned } from '../../forwarder/helpers/self-signed.js';

/** What a probe knows: the service, the application, a spill folder. */
export interface WalkContext {
  apiKey: string;
  baseUrl: string;
  applicationId: string;
  /** The name of an application the service holds (its id is `applicationId`). */
  applicationName: string;
  persistDir: string;
}

/** A value to set a variable to, with what else the environment holds (or lacks) for it. */
export interface Probe {
  name: string;
  value: string;
  /** Connection variables left out (e.g. `AQM_APPLICATION_ID` when the name is probed). */
  unset?: string[];
  /** Other variables the value needs (e.g. a folder for `AQM_PERSIST_MODE`). */
  also?: Record<string, string>;
}

/** What a package did with one probe. */
export interface Observation {
  /** Started (or ran) without refusing the configuration. */
  accepted: boolean;
  /** The record of the trace the probe sent, as the service stored it; `null`: none arrived. */
  record: Trace | null;
  /** Warning (or error) lines about the configuration. */
  lines: string[];
  /** Debug lines seen. */
  debugLines: number;
  /** Options as resolved by the package, where it shows them. */
  resolved?: Record<string, unknown>;
}

/** How each variable is set in the walk: a valid value, and an invalid one where any exists. */
export interface Sample {
  valid(ctx: WalkContext): Omit<Probe, 'name'>;
  /** `undefined`: every value is accepted (any text, a key, a folder). */
  invalid?: Omit<Probe, 'name'>;
  /** The line names the variable but not the value: a secret, or a value said by its length. */
  notShown?: boolean;
}

/** Escape, then `[2J`: shown escaped in the warning, never raw. */
const CONTROL = '\u001b[2J';

/**
 * A self-signed certificate and its key for the gRPC receiver's TLS variables, made by openssl
 * (node:crypto makes no X.509 certificate) once, removed when the process exits.
 */
const TLS_DIR = mkdtempSync(join(tmpdir(), 'aqm-env-walk-tls-'));
process.once('exit', () => rmSync(TLS_DIR, { recursive: true, force: true }));
const TLS = selfSigned(TLS_DIR, 'walk');
/** A path no file is at, shown (escaped) in the line that says it cannot be read. */
const NO_FILE = join(TLS_DIR, `missing${CONTROL}.pem`);
const GRPC_TLS = {
  AQM_FORWARDER_GRPC_PORT: '0',
  AQM_FORWARDER_GRPC_TLS_CERT_FILE: TLS.cert,
  AQM_FORWARDER_GRPC_TLS_KEY_FILE: TLS.key,
};
/** The gRPC TLS variables but `name`, so that `name` is probed alone. */
function grpcTlsBut(name: keyof typeof GRPC_TLS): Record<string, string> {
  const { [name]: _probed, ...rest } = GRPC_TLS;
  return rest;
}

/** One sample per variable of `ENV_VARIABLES`; the test fails when one is missing. */
export const SAMPLES: Record<string, Sample> = {
  AQM_API_KEY: { valid: (ctx) => ({ value: ctx.apiKey }) },
  AQM_BASE_URL: {
    valid: (ctx) => ({ value: ctx.baseUrl }),
    invalid: { value: `ftp://aqm.example/api${CONTROL}` },
  },
  AQM_APPLICATION_ID: {
    valid: (ctx) => ({ value: ctx.applicationId }),
    invalid: { value: 'not-a-uuid' },
  },
  AQM_APPLICATION_NAME: {
    valid: (ctx) => ({ value: ctx.applicationName, unset: ['AQM_APPLICATION_ID'] }),
    invalid: { value: 'n'.repeat(250), unset: ['AQM_APPLICATION_ID'] },
    notShown: true,
  },
  AQM_ENVIRONMENT: { valid: () => ({ value: 'staging-eu' }) },
  AQM_APP_VERSION: { valid: () => ({ value: '4.2.0-walk' }) },
  AQM_SAMPLE_RATE: { valid: () => ({ value: '0' }), invalid: { value: `half${CONTROL}` } },
  AQM_SERVERLESS: { valid: () => ({ value: 'true' }), invalid: { value: 'maybe' } },
  AQM_FLUSH_TIMEOUT_MS: { valid: () => ({ value: '4321' }), invalid: { value: '5s' } },
  AQM_PERSIST_DIR: { valid: (ctx) => ({ value: ctx.persistDir }) },
  AQM_PERSIST_MODE: {
    valid: (ctx) => ({ value: 'write-ahead', also: { AQM_PERSIST_DIR: ctx.persistDir } }),
    invalid: { value: 'fast' },
  },
  AQM_DISABLED: { valid: () => ({ value: 'true' }), invalid: { value: 'perhaps' } },
  AQM_DEBUG: { valid: () => ({ value: '1' }) },
  AQM_FORWARDER_TOKENS: {
    valid: () => ({ value: 'walk-token-0123456789abcdef' }),
    invalid: { value: 'short' },
    notShown: true,
  },
  AQM_FORWARDER_MAX_BODY_BYTES_IN_FLIGHT: {
    valid: () => ({ value: String(64 * 1024 * 1024) }),
    invalid: { value: '12' },
  },
  AQM_FORWARDER_GRPC_PORT: { valid: () => ({ value: '0' }), invalid: { value: `43${CONTROL}17` } },
  AQM_FORWARDER_GRPC_TLS_CERT_FILE: {
    valid: () => ({ value: TLS.cert, also: grpcTlsBut('AQM_FORWARDER_GRPC_TLS_CERT_FILE') }),
    invalid: { value: NO_FILE, also: grpcTlsBut('AQM_FORWARDER_GRPC_TLS_CERT_FILE') },
  },
  AQM_FORWARDER_GRPC_TLS_KEY_FILE: {
    valid: () => ({ value: TLS.key, also: grpcTlsBut('AQM_FORWARDER_GRPC_TLS_KEY_FILE') }),
    invalid: { value: NO_FILE, also: grpcTlsBut('AQM_FORWARDER_GRPC_TLS_KEY_FILE') },
  },
  // The certificate is its own CA: senders over gRPC must present it; the walk sends over HTTP.
  AQM_FORWARDER_GRPC_TLS_CA_FILE: {
    valid: () => ({ value: TLS.cert, also: GRPC_TLS }),
    invalid: { value: NO_FILE, also: GRPC_TLS },
  },
};

/** The raw value as a warning shows it: control characters escaped (`\u001b`). */
export function visible(value: string): string {
  return value.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
    /[\u0000-\u001f\u007f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
