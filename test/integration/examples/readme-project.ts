import { existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './run-node.js';

/** The package a bare import specifier names (`@langchain/core/prompts` → `@langchain/core`). */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The packages a piece of code imports or requires. */
export function importedPackages(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/\bfrom '([^']+)'|\bimport\('([^']+)'\)|\brequire\('([^']+)'\)/g)) {
    const name = packageOf(m[1] ?? m[2] ?? m[3] ?? '');
    if (name !== undefined) names.add(name);
  }
  return names;
}

/** Where the workspace has packages: the root's node_modules, then the packages' and examples' own. */
const MODULE_DIRS = [
  join(ROOT, 'node_modules'),
  ...['packages', 'examples'].flatMap((folder) =>
    readdirSync(join(ROOT, folder)).map((name) => join(ROOT, folder, name, 'node_modules')),
  ),
];

/** The workspace's copy of a package (the built one for @aqm/*), or undefined when it has none. */
export function workspacePackage(name: string): string | undefined {
  const found = MODULE_DIRS.map((d) => join(d, name)).find((d) => existsSync(join(d, 'package.json')));
  return found === undefined ? undefined : realpathSync(found);
}

/** Links `node_modules/<as>` of a project to a package folder, as `npm install` would have put it there. */
export function linkPackage(project: string, as: string, target: string): void {
  const at = join(project, 'node_modules', as);
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(target, at, 'dir');
}
