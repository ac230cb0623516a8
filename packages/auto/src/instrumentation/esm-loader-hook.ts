import { register } from 'node:module';

/** The packages whose ESM `import` the loader hook intercepts; every other module is left alone. */
export const HOOKED_MODULES = ['openai', '@anthropic-ai/sdk'] as const;

const REGISTERED = Symbol.for('@aqm/auto.esm-loader-hook');

/**
 * Registers import-in-the-middle's loader hook (through `@opentelemetry/instrumentation/hook.mjs`),
 * which lets instrumentations patch packages an ESM app `import`s. It must run before the app's
 * imports (so from a `--import` preload) and before the instrumentations are created. It is limited
 * to {@link HOOKED_MODULES}, so no other module of the app is wrapped. Registered once per process.
 *
 * @example
 * registerEsmLoaderHook();
 */
export function registerEsmLoaderHook(): void {
  const flags = globalThis as { [REGISTERED]?: boolean };
  if (flags[REGISTERED] === true) return;
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, {
    data: { include: [...HOOKED_MODULES] },
  });
  flags[REGISTERED] = true;
}
