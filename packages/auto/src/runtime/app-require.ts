import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

/**
 * A `require` that resolves as the app does: from its main script (`process.argv[1]`), else from
 * the working directory. Used to ask whether the app can load a package (LangChain) and to find
 * the app's copy of `@opentelemetry/api`.
 */
export function appRequire(): NodeJS.Require {
  const main = process.argv[1];
  const from = main === undefined || main === '' ? join(process.cwd(), 'app.js') : resolve(main);
  return createRequire(from);
}

/** `require` from this package's own location (works in both builds: tsup shims `import.meta.url`). */
export const requireFromHere: NodeJS.Require = createRequire(import.meta.url);

/** Whether `id` resolves through `require`. */
export function canResolve(require: NodeJS.Require, id: string): boolean {
  try {
    require.resolve(id);
    return true;
  } catch {
    return false;
  }
}
