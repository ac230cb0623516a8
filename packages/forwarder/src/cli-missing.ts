import type { ForwarderOptions } from './forwarder-options.js';

type Env = Record<string, string | undefined>;

/** Settings the command line cannot run without: the message lists every one missing. */
export class MissingSettingsError extends Error {
  override readonly name = 'MissingSettingsError';
}

function unset(value: string | undefined): boolean {
  // As `resolveForwarderOptions` reads the environment: an empty variable is not set.
  return value === undefined || value === '';
}

/**
 * The required settings missing from the command line and the environment, each named as the
 * operator gives it (flags and variables, not the option names of code), so a first run with
 * nothing set learns everything it needs at once instead of one setting per attempt.
 *
 * @example
 * missingSettings({}, {}) // ['the API key: AQM_API_KEY ...', 'the base URL: --base-url or AQM_BASE_URL', ...]
 */
export function missingSettings(options: ForwarderOptions, env: Env): string[] {
  const missing: string[] = [];
  if (options.apiKey === undefined && unset(env.AQM_API_KEY)) {
    // There is no flag on purpose: a key on the command line shows in the process list.
    missing.push('the API key: the AQM_API_KEY environment variable (there is no flag for it)');
  }
  if (options.baseUrl === undefined && unset(env.AQM_BASE_URL))
    missing.push(
      "the service's base URL: --base-url or AQM_BASE_URL (with its path prefix, e.g. https://aqm.example.com/api)",
    );
  const application =
    options.applicationId !== undefined ||
    options.applicationName !== undefined ||
    options.applicationFromResource === true ||
    !unset(env.AQM_APPLICATION_ID) ||
    !unset(env.AQM_APPLICATION_NAME);
  if (!application) {
    missing.push(
      'the application: --application-id/--application-name or AQM_APPLICATION_ID/AQM_APPLICATION_NAME ' +
        '(or --application-from-resource)',
    );
  }
  return missing;
}

/** The one message for {@link missingSettings}, a line per setting. */
export function missingSettingsMessage(missing: readonly string[]): string {
  return `Missing configuration:\n${missing.map((line) => `  - ${line}`).join('\n')}`;
}
