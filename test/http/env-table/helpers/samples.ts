import type { Trace } from '@aqm/wire';

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
};

/** The raw value as a warning shows it: control characters escaped (`\u001b`). */
export function visible(value: string): string {
  return value.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
    /[\u0000-\u001f\u007f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
