import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { ApiKey } from './auth.js';
import { checkCliOptions, inFlagTerms } from './cli-flag-names.js';
import type { FaultRule, FaultsConfig } from './faults.js';
import { DEFAULT_MAX_REQUESTS_IN_PROGRESS, type StartServerOptions } from './options.js';

/** The port `aqm-server` listens on when `--port` is not given. */
export const DEFAULT_CLI_PORT = 4000;
/** The project of a key given without `:PROJECT`, and of the generated development key. */
export const DEFAULT_PROJECT = 'default';

/** `aqm-server --help` */
export const USAGE = `Usage: aqm-server [options]

Runs the AQM service locally (every endpoint of the interface, SQLite storage).

Options:
  --port N                 port to listen on (default ${DEFAULT_CLI_PORT}; 0 picks a free one)
  --host HOST              interface to listen on (default 127.0.0.1)
  --prefix PATH            path prefix of the routes, part of the base URL (default /api)
  --api-key KEY[:PROJECT]  accept KEY for PROJECT (default project "${DEFAULT_PROJECT}"); repeatable.
                           Without any, a development key is generated and printed.
  --data-dir DIR           keep data in DIR/aqm.sqlite (default: in memory, lost on exit)
  --application NAME       find or create the application NAME (for the first key's project)
                           and print its id as AQM_APPLICATION_ID
  --log                    log every request (fastify logger)
  --max-requests-in-progress N
                           requests in progress at once, shared fairly between projects; past
                           its share a project's request gets 429 with Retry-After
                           (default ${DEFAULT_MAX_REQUESTS_IN_PROGRESS})
  -h, --help               show this help

Faults (one rule; with several --fault-route, one rule per route):
  --fault-route NAME       route to affect, e.g. evaluations.submit (default: every route); repeatable
  --fault-rate R           share of matching requests hit, 0..1 (default 1)
  --fault-status CODE      answer CODE (400..599) with the error envelope
  --fault-retry-after V    Retry-After of that answer: seconds or an HTTP date
  --fault-latency-ms MS    wait MS before answering
  --fault-reset            reset the connection instead of answering
  --fault-hang             never answer
  --fault-seed N           seed of the fault PRNG (default 1)
`;

/** What the command line asks for. */
export type CliCommand =
  | { kind: 'help' }
  | {
      kind: 'run';
      options: StartServerOptions & { port: number };
      generatedKey: ApiKey | undefined;
      /** `--application NAME`: the application to find or create once listening. */
      application: string | undefined;
    };

/** A command line error: the message names the flag, what it expects and what it got. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

/**
 * Parses `aqm-server` arguments into `startServer` options. Keys are never echoed in errors.
 * @throws CliUsageError for an unknown flag or a bad value.
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (values.help === true) return { kind: 'help' };
  const options: StartServerOptions & { port: number } = {
    port: integerFlag('--port', values.port, DEFAULT_CLI_PORT),
    apiKeys: (values['api-key'] ?? []).map(parseKeyFlag),
  };
  if (values.host !== undefined) options.host = values.host;
  if (values.prefix !== undefined) options.prefix = values.prefix;
  if (values['data-dir'] !== undefined) options.dataDir = values['data-dir'];
  if (values.log === true) options.logger = true;
  const maxInProgress = values['max-requests-in-progress'];
  if (maxInProgress !== undefined) {
    options.maxRequestsInProgress = integerFlag('--max-requests-in-progress', maxInProgress, 0);
  }
  const faults = faultsFromFlags(values);
  if (faults !== undefined) options.faults = faults;
  let generatedKey: ApiKey | undefined;
  if (options.apiKeys.length === 0) {
    generatedKey = { key: `aqm_dev_${randomBytes(16).toString('hex')}`, projectId: DEFAULT_PROJECT };
    options.apiKeys = [generatedKey];
  }
  try {
    // A value the flag parsing let through but startServer refuses (a port over 65535, a fault
    // status of 200) is a usage error too: exit 2 naming the flag, before anything starts.
    checkCliOptions(options);
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) {
      throw new CliUsageError(inFlagTerms(error.message));
    }
    throw error;
  }
  return { kind: 'run', options, generatedKey, application: applicationFlag(values.application) };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    // `pnpm run server -- --port 0` passes the `--` on (after the script's own flags with
    // `pnpm start -- --port 0`); it is not an end of options here.
    args: argv.filter((arg, i) => arg !== '--' || i !== argv.indexOf('--')),
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      prefix: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      'data-dir': { type: 'string' },
      application: { type: 'string' },
      log: { type: 'boolean' },
      'max-requests-in-progress': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      'fault-route': { type: 'string', multiple: true },
      'fault-rate': { type: 'string' },
      'fault-status': { type: 'string' },
      'fault-retry-after': { type: 'string' },
      'fault-latency-ms': { type: 'string' },
      'fault-reset': { type: 'boolean' },
      'fault-hang': { type: 'boolean' },
      'fault-seed': { type: 'string' },
    },
  });
}

type Values = ReturnType<typeof parse>['values'];

function parseKeyFlag(value: string, i: number): ApiKey {
  const colon = value.indexOf(':');
  const key = colon === -1 ? value : value.slice(0, colon);
  const projectId = colon === -1 ? DEFAULT_PROJECT : value.slice(colon + 1);
  if (key === '' || /\s/.test(key)) {
    throw new CliUsageError(
      `--api-key #${i + 1} must be KEY or KEY:PROJECT with a non-empty KEY without spaces`,
    );
  }
  if (projectId.trim() === '') throw new CliUsageError(`--api-key #${i + 1} has an empty PROJECT after ':'`);
  return { key, projectId };
}

/** Application names are 1 to 100 characters (the wire contract's rule), checked before starting. */
function applicationFlag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const name = value.trim();
  if (name === '' || name.length > 100) {
    throw new CliUsageError(`--application must be a name of 1 to 100 characters, got "${value}"`);
  }
  return name;
}

function faultsFromFlags(values: Values): FaultsConfig | undefined {
  const rule: FaultRule = {};
  if (values['fault-rate'] !== undefined) rule.rate = numberFlag('--fault-rate', values['fault-rate']);
  if (values['fault-status'] !== undefined)
    rule.status = integerFlag('--fault-status', values['fault-status'], 0);
  const retryAfter = values['fault-retry-after'];
  if (retryAfter !== undefined) rule.retryAfter = /^\d+$/.test(retryAfter) ? Number(retryAfter) : retryAfter;
  if (values['fault-latency-ms'] !== undefined) {
    rule.latencyMs = numberFlag('--fault-latency-ms', values['fault-latency-ms']);
  }
  if (values['fault-reset'] === true) rule.reset = true;
  if (values['fault-hang'] === true) rule.hang = true;
  const routes = values['fault-route'] ?? [];
  const seed = values['fault-seed'];
  if (Object.keys(rule).length === 0 && routes.length === 0 && seed === undefined) return undefined;
  const rules =
    routes.length === 0 ? [rule] : routes.map((route) => ({ ...rule, route: route as FaultRule['route'] }));
  const faults: FaultsConfig = { rules };
  if (seed !== undefined) faults.seed = integerFlag('--fault-seed', seed, 1);
  return faults;
}

function numberFlag(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new CliUsageError(`${flag} must be a number, got "${value}"`);
  return n;
}

function integerFlag(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new CliUsageError(`${flag} must be an integer, got "${value}"`);
  return Number(value);
}
