import { parseArgs } from 'node:util';

/** `aqm-fake-llm --help` */
export const USAGE = `Usage: aqm-fake-llm [options]

Runs a deterministic OpenAI- and Anthropic-compatible model server (no network, no keys needed).

Options:
  --port N            port to listen on (default 0: a free one, printed on start)
  --host HOST         interface to listen on (default 127.0.0.1)
  --chunk-delay-ms MS delay before each streamed chunk (default 0)
  -h, --help          show this help
`;

/** What the command line asks for. */
export type FakeLlmCliCommand =
  | { kind: 'help' }
  | { kind: 'run'; options: { port: number; host: string; chunkDelayMs: number } };

/** A command line error: the message names the flag, what it expects and what it got. */
export class FakeLlmCliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FakeLlmCliError';
  }
}

/**
 * Parses `aqm-fake-llm` arguments.
 * @throws FakeLlmCliError for an unknown flag or a bad value.
 */
export function parseFakeLlmArgs(argv: readonly string[]): FakeLlmCliCommand {
  let values: { port?: string; host?: string; 'chunk-delay-ms'?: string; help?: boolean };
  try {
    values = parseArgs({
      // `pnpm exec aqm-fake-llm -- --port 0` passes the `--` on; it is not an end of options here.
      args: argv[0] === '--' ? argv.slice(1) : [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'chunk-delay-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw new FakeLlmCliError((error as Error).message);
  }
  if (values.help === true) return { kind: 'help' };
  const port = values.port === undefined ? 0 : Number(values.port);
  if (values.port !== undefined && (!/^\d+$/.test(values.port) || port > 65535)) {
    throw new FakeLlmCliError(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  }
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '')
    throw new FakeLlmCliError('--host must be a non-empty host name or address, got ""');
  const delay = values['chunk-delay-ms'];
  const chunkDelayMs = delay === undefined ? 0 : Number(delay);
  if (delay !== undefined && (delay.trim() === '' || !Number.isFinite(chunkDelayMs) || chunkDelayMs < 0)) {
    throw new FakeLlmCliError(`--chunk-delay-ms must be a number >= 0, got "${delay}"`);
  }
  return { kind: 'run', options: { port, host, chunkDelayMs } };
}
