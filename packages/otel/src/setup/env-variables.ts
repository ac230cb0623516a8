/**
 * The one list of the `AQM_*` environment variables of the toolkit: what each sets, what it
 * accepts, its default and the packages that read it. The packages' environment readers take
 * their checks from here (`envCheck`), the root README's table lists the same rows, and a test
 * compares the table, this list and the code, so that they cannot drift apart.
 */

/** A package that reads environment variables. */
export type EnvPackage = '@aqm/otel' | '@aqm/auto' | '@aqm/forwarder' | '@aqm/client' | '@aqm/cli';

/** How a value is checked, for the variables whose readers share the check. */
export type EnvCheck =
  | { readonly kind: 'text' }
  | { readonly kind: 'flag' }
  | { readonly kind: 'number'; readonly min: number; readonly max: number }
  | { readonly kind: 'integer'; readonly min: number; readonly max: number }
  | { readonly kind: 'choice'; readonly values: readonly string[] };

/** One environment variable. */
export interface EnvVariable {
  readonly name: `AQM_${string}`;
  /** The option of code it stands for (`undefined`: a switch with no option). */
  readonly option: string | undefined;
  /** What it sets, for the README. */
  readonly sets: string;
  /** What it accepts, for the README. */
  readonly accepted: string;
  /** The value when unset, for the README. */
  readonly default: string;
  /** The packages that read it; the option passed in code wins in each. */
  readonly packages: readonly EnvPackage[];
  /** The check shared by every package reading it (others are checked by their own readers). */
  readonly check?: EnvCheck;
}

const ALL_SENDERS: readonly EnvPackage[] = ['@aqm/otel', '@aqm/auto', '@aqm/forwarder'];
const FLAG_WORDS = '`true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off`)';

/** Every `AQM_*` variable read by a package of the toolkit. */
export const ENV_VARIABLES: readonly EnvVariable[] = [
  {
    name: 'AQM_API_KEY',
    option: 'apiKey',
    sets: 'API key sent as `x-api-key` (never printed)',
    accepted: 'a non-empty string',
    default: 'none (required)',
    packages: ['@aqm/otel', '@aqm/auto', '@aqm/forwarder', '@aqm/client', '@aqm/cli'],
  },
  {
    name: 'AQM_BASE_URL',
    option: 'baseUrl',
    sets: 'the service address, with its path prefix',
    accepted: 'an http(s) URL; plain http for loopback only',
    default: 'none (required)',
    packages: ['@aqm/otel', '@aqm/auto', '@aqm/forwarder', '@aqm/client', '@aqm/cli'],
  },
  {
    name: 'AQM_APPLICATION_ID',
    option: 'applicationId',
    sets: 'the application the traces belong to (wins over `AQM_APPLICATION_NAME`)',
    accepted: 'a UUID',
    default: 'none (this or `AQM_APPLICATION_NAME`)',
    packages: ALL_SENDERS,
  },
  {
    name: 'AQM_APPLICATION_NAME',
    option: 'applicationName',
    sets: 'the application, by name: found, or created when missing',
    accepted: '1 to 100 characters (the forwarder: 200)',
    default: 'none',
    packages: ['@aqm/auto', '@aqm/forwarder'],
  },
  {
    name: 'AQM_ENVIRONMENT',
    option: 'environment',
    sets: '`environment` of every trace',
    accepted: 'any text',
    default: "the resource's `deployment.environment.name`",
    packages: ALL_SENDERS,
    check: { kind: 'text' },
  },
  {
    name: 'AQM_APP_VERSION',
    option: 'appVersion',
    sets: '`appVersion` of every trace',
    accepted: 'any text',
    default: "the resource's `service.version`",
    packages: ALL_SENDERS,
    check: { kind: 'text' },
  },
  {
    name: 'AQM_SAMPLE_RATE',
    option: 'sampleRate',
    sets: 'share of traces sent, decided by trace id',
    accepted: 'a number from 0 to 1',
    default: '1',
    packages: ALL_SENDERS,
    check: { kind: 'number', min: 0, max: 1 },
  },
  {
    name: 'AQM_SERVERLESS',
    option: 'serverless',
    sets: 'no timer sends anything: traces wait for `forceFlush()` (Lambda, Vercel functions)',
    accepted: FLAG_WORDS,
    default: '`false`',
    packages: ['@aqm/otel', '@aqm/auto'],
    check: { kind: 'flag' },
  },
  {
    name: 'AQM_FLUSH_TIMEOUT_MS',
    option: 'flushTimeoutMs',
    sets: 'longest wait of `forceFlush()` and of the exit flush, in ms',
    accepted: 'an integer from 1 to 600000',
    default: '30000 (@aqm/auto: 5000)',
    packages: ALL_SENDERS,
    check: { kind: 'integer', min: 1, max: 600_000 },
  },
  {
    name: 'AQM_PERSIST_DIR',
    option: 'persistDir',
    sets: 'folder keeping undelivered traces on disk (`aqm spill` reads it too)',
    accepted: 'a folder path',
    default: 'none (memory only)',
    packages: ['@aqm/otel', '@aqm/auto', '@aqm/forwarder', '@aqm/cli'],
  },
  {
    name: 'AQM_PERSIST_MODE',
    option: 'persistMode',
    sets: 'how the folder is used: memory first, or every trace on disk before it is accepted',
    accepted: '`overflow` or `write-ahead`',
    default: '`overflow`',
    packages: ALL_SENDERS,
    check: { kind: 'choice', values: ['overflow', 'write-ahead'] },
  },
  {
    name: 'AQM_DISABLED',
    option: undefined,
    sets: 'turns tracing off (so does `OTEL_SDK_DISABLED=true`)',
    accepted: FLAG_WORDS,
    default: '`false`',
    packages: ['@aqm/otel', '@aqm/auto'],
    check: { kind: 'flag' },
  },
  {
    name: 'AQM_DEBUG',
    option: 'debug',
    sets: 'debug lines on stderr: configuration, each trace sent or skipped (so does `OTEL_LOG_LEVEL=debug`)',
    accepted: '`1`, `true`, `yes` or `on` (anything else: off)',
    default: 'off',
    packages: ALL_SENDERS,
  },
  {
    name: 'AQM_FORWARDER_TOKENS',
    option: 'ingestTokens',
    sets: 'tokens senders must present (`Authorization: Bearer`, or `x-api-key`)',
    accepted: 'comma-separated, each at least 16 characters without spaces',
    default: 'none (loopback only)',
    packages: ['@aqm/forwarder'],
  },
  {
    name: 'AQM_FORWARDER_MAX_BODY_BYTES_IN_FLIGHT',
    option: 'maxBodyBytesInFlight',
    sets: 'bytes of request bodies held at once; past it senders get 503',
    accepted: 'an integer from `maxBodyBytes` to 17179869184',
    default: '8 × `maxBodyBytes` (64 MiB)',
    packages: ['@aqm/forwarder'],
  },
  {
    name: 'AQM_FORWARDER_GRPC_PORT',
    option: 'grpcPort',
    sets: 'port of an OTLP/gRPC receiver beside the HTTP one (same host, tokens and bounds)',
    accepted: 'an integer from 0 to 65535 (0: a free port)',
    default: 'none (no gRPC receiver)',
    packages: ['@aqm/forwarder'],
  },
  {
    name: 'AQM_FORWARDER_GRPC_TLS_CERT_FILE',
    option: 'grpcTlsCertFile',
    sets: 'PEM certificate of the gRPC receiver: it serves TLS',
    accepted: 'a file path, with `AQM_FORWARDER_GRPC_TLS_KEY_FILE`',
    default: 'none (plaintext)',
    packages: ['@aqm/forwarder'],
  },
  {
    name: 'AQM_FORWARDER_GRPC_TLS_KEY_FILE',
    option: 'grpcTlsKeyFile',
    sets: 'PEM private key of that certificate',
    accepted: 'a file path, with `AQM_FORWARDER_GRPC_TLS_CERT_FILE`',
    default: 'none',
    packages: ['@aqm/forwarder'],
  },
  {
    name: 'AQM_FORWARDER_GRPC_TLS_CA_FILE',
    option: 'grpcTlsCaFile',
    sets: 'PEM CA that gRPC senders must present a client certificate of (mutual TLS)',
    accepted: 'a file path, with the certificate and key files',
    default: 'none (no client certificate asked)',
    packages: ['@aqm/forwarder'],
  },
];

/** The variable named `name` (a programmer's error when unknown). */
export function envVariable(name: string): EnvVariable {
  const found = ENV_VARIABLES.find((variable) => variable.name === name);
  if (found === undefined) throw new Error(`${name} is not in ENV_VARIABLES`);
  return found;
}
