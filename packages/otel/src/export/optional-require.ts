import { createRequire } from 'node:module';

/**
 * Synchronous `require` for the optional peers (`@opentelemetry/sdk-trace-node`, `sdk-logs`,
 * `api-logs`), so `registerAqm()` can stay synchronous and run before the app's other imports.
 * It resolves from this package's location, as a static import would. (The CJS build gets
 * `import.meta.url` through tsup's shims.)
 */
const requireFromHere = createRequire(import.meta.url);

/** Loads a module, or returns `undefined` when it is not installed. Other load errors propagate. */
export function optionalRequire<T>(id: string): T | undefined {
  try {
    return requireFromHere(id) as T;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') {
      const message = (error as { message?: unknown }).message;
      // Only "this module is missing", not "a module it needs is missing" (a broken install).
      if (typeof message === 'string' && message.includes(`'${id}'`)) return undefined;
    }
    throw error;
  }
}
