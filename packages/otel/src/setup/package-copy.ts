import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A copy of a package: its folder (real path) and version. */
export interface Copy {
  dir: string;
  version: string;
}

/** The folder and version of the copy `require` resolves `id` to, or `undefined`. */
export function copyOf(require: NodeJS.Require, id: string): Copy | undefined {
  let entry: string;
  try {
    entry = require.resolve(id);
  } catch {
    return undefined;
  }
  // The entry lies somewhere inside the package: walk up to its package.json.
  for (let dir = dirname(entry), depth = 0; depth < 8; dir = dirname(dir), depth += 1) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === id) {
        return { dir: realpathSync(dir), version: String(manifest.version) };
      }
    } catch {
      // No package.json here: keep walking up.
    }
    if (dirname(dir) === dir) break;
  }
  return undefined;
}

/** A `require` that resolves as code inside `dir` (a package folder, or the app's root) does. */
export function requireFrom(dir: string): NodeJS.Require {
  return createRequire(join(dir, 'package.json'));
}
