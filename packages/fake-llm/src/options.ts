import type { FakeChatRequest, FakeLlmOptions } from './types.js';

/** {@link FakeLlmOptions} checked, with defaults applied (`respond` stays undefined for the default rules). */
export interface CheckedOptions {
  port: number;
  host: string;
  respond: ((request: FakeChatRequest) => string) | undefined;
  chunkDelayMs: number;
}

const KNOWN = new Set(['port', 'host', 'respond', 'chunkDelayMs']);

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/**
 * Checks the options of `startFakeLlm`.
 * @throws TypeError or RangeError naming the option, what it expects and what it got.
 */
export function checkOptions(options: FakeLlmOptions | undefined): CheckedOptions {
  if (options === undefined) return { port: 0, host: '127.0.0.1', respond: undefined, chunkDelayMs: 0 };
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`startFakeLlm options must be an object, got ${show(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) {
      throw new TypeError(`startFakeLlm got an unknown option "${key}"; known: ${[...KNOWN].join(', ')}`);
    }
  }
  const { port = 0, host = '127.0.0.1', respond, chunkDelayMs = 0 } = options;
  if (typeof port !== 'number' || !Number.isInteger(port)) {
    throw new TypeError(`Expected \`port\` to be an integer from 0 to 65535, got ${show(port)}`);
  }
  if (port < 0 || port > 65535) {
    throw new RangeError(`Expected \`port\` to be an integer from 0 to 65535, got ${port}`);
  }
  if (typeof host !== 'string' || host.trim() === '') {
    throw new TypeError(`Expected \`host\` to be a non-empty string, got ${show(host)}`);
  }
  if (respond !== undefined && typeof respond !== 'function') {
    throw new TypeError(`Expected \`respond\` to be a function (request) => string, got ${show(respond)}`);
  }
  if (typeof chunkDelayMs !== 'number' || Number.isNaN(chunkDelayMs)) {
    throw new TypeError(`Expected \`chunkDelayMs\` to be a finite number >= 0, got ${show(chunkDelayMs)}`);
  }
  if (chunkDelayMs < 0 || !Number.isFinite(chunkDelayMs)) {
    throw new RangeError(`Expected \`chunkDelayMs\` to be a finite number >= 0, got ${chunkDelayMs}`);
  }
  return { port, host, respond, chunkDelayMs };
}
