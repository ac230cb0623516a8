import { CliUsageError } from './usage-error.js';

/** Where the service is and the key to use, after flags and environment are combined. */
export interface ServiceConfig {
  apiKey: string;
  baseUrl: string;
}

/**
 * Resolves the API key and base URL: `--api-key`/`--base-url` first, then `AQM_API_KEY`/
 * `AQM_BASE_URL`. A missing one is a usage error that says how to give it (never the key itself).
 */
export function resolveServiceConfig(
  flags: { apiKey?: string | undefined; baseUrl?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): ServiceConfig {
  const apiKey = nonEmpty(flags.apiKey) ?? nonEmpty(env.AQM_API_KEY);
  const baseUrl = nonEmpty(flags.baseUrl) ?? nonEmpty(env.AQM_BASE_URL);
  if (apiKey === undefined) {
    throw new CliUsageError('No API key: pass --api-key or set AQM_API_KEY.');
  }
  if (baseUrl === undefined) {
    throw new CliUsageError(
      'No service address: pass --base-url or set AQM_BASE_URL (for example http://127.0.0.1:4000/api).',
    );
  }
  return { apiKey, baseUrl };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
