import { AutoSession } from './auto-session.js';
import { readAutoConfig } from './config/env-config.js';
import type { Env } from './config/env-values.js';
import type { AutoHandle, AutoStatus, StartAutoOptions } from './types.js';
import { warn } from './warn.js';

const ACTIVE = Symbol.for('@aqm/auto.active');
const OWNER = Symbol.for('@aqm/auto.active-session');
const KNOWN_OPTIONS = new Set(['esmLoaderHook', 'exitHooks']);

/** A handle for when `@aqm/auto` does nothing. */
function offHandle(reason: string): AutoHandle {
  const status: AutoStatus = { enabled: false, reason };
  return {
    ready: Promise.resolve(status),
    instrumented: Promise.resolve(),
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}

function describe(value: unknown): string {
  if (value === null) return '`null`';
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  if (typeof value === 'function') return 'a function';
  return `\`${String(value)}\` (${typeof value})`;
}

/** Throws on a programming error in the options (unknown name, wrong type). */
function checkOptions(options: StartAutoOptions): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`Expected the options to be an object, got ${describe(options)}`);
  }
  for (const [key, value] of Object.entries(options)) {
    if (!KNOWN_OPTIONS.has(key)) {
      throw new TypeError(`Unknown option \`${key}\`; known options are ${[...KNOWN_OPTIONS].join(', ')}`);
    }
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(`Expected \`${key}\` to be a boolean, got ${describe(value)}`);
    }
  }
}

/**
 * Starts sending the app's LLM interactions to the AQM service, configured from environment
 * variables alone (`AQM_API_KEY`, `AQM_BASE_URL`, `AQM_APPLICATION_ID` or `AQM_APPLICATION_NAME`,
 * and the optional ones in the README). What `node --import @aqm/auto/register` runs.
 *
 * Tracing starts synchronously; an application looked up by name is resolved in the background
 * and spans recorded meanwhile are kept. `AQM_DISABLED=true` makes it do nothing. A missing or bad
 * variable, or any failure while setting up, is reported with one warning on stderr and leaves the
 * app untouched: it never throws for configuration (only for a wrong `options` argument).
 *
 * @example
 * import { startAuto } from '@aqm/auto';
 * const auto = startAuto(); // reads process.env
 * console.log(await auto.ready); // { enabled: true, applicationId: '…' }
 * await auto.shutdown();
 */
export function startAuto(env: Env = process.env, options: StartAutoOptions = {}): AutoHandle {
  checkOptions(options);
  const flags = globalThis as { [ACTIVE]?: boolean; [OWNER]?: symbol | undefined };
  const outcome = readAutoConfig(env);
  if (outcome.kind === 'off') {
    if (outcome.warning !== undefined) warn(outcome.warning);
    return offHandle(outcome.reason);
  }
  if (flags[ACTIVE] === true) {
    // Both --import and --require given, or a call in code after the preload: one is enough.
    warn('already running in this process (preloaded, or started twice); this call does nothing.');
    return offHandle('already running');
  }
  // The flag is cleared by this session's shutdown only, even when that ends after a newer start.
  const owner = Symbol('@aqm/auto session');
  const release = () => {
    if (flags[OWNER] !== owner) return;
    flags[ACTIVE] = false;
    flags[OWNER] = undefined;
  };
  try {
    flags[ACTIVE] = true;
    flags[OWNER] = owner;
    return new AutoSession(outcome.config, options, release);
  } catch (error) {
    release();
    warn(
      `could not start, so no LLM trace is sent: ${error instanceof Error ? error.message : String(error)}`,
    );
    return offHandle('setup failed');
  }
}
