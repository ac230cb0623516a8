import { type FieldError, formatPath, type Plugins, type SecurityCatalog } from '@aqm/wire';
import { describeValue } from '../describe-value.js';
import { securityPluginCatalog } from './security-plugins.js';

function categoryOf(catalog: SecurityCatalog, id: string): string | undefined {
  return Object.keys(catalog).find((category) => catalog[category]?.some((plugin) => plugin.type === id));
}

/**
 * Checks monitoring plugins against a security plugin catalog: each key is a category of the
 * catalog (else an error at `plugins.<category>`) and each id a plugin of that category (else
 * an error at `plugins.<category>[i]`).
 */
export function checkPluginsAgainst(catalog: SecurityCatalog, plugins: Plugins): FieldError[] {
  const errors: FieldError[] = [];
  const categories = Object.keys(catalog);
  for (const [category, ids] of Object.entries(plugins)) {
    const available = Object.hasOwn(catalog, category) ? catalog[category] : undefined;
    if (!available) {
      errors.push({
        path: formatPath(['plugins', category]),
        message: `unknown plugin category ${describeValue(category)}; known: ${categories.join(', ')}`,
      });
      continue;
    }
    const knownIds = available.map((plugin) => plugin.type);
    ids.forEach((id, index) => {
      if (knownIds.includes(id)) return;
      const path = formatPath(['plugins', category, index]);
      const home = typeof id === 'string' ? categoryOf(catalog, id) : undefined;
      const message = home
        ? `plugin "${id}" belongs to category "${home}", not "${category}"`
        : `unknown plugin ${describeValue(id)} in category "${category}"; known: ${knownIds.join(', ')}`;
      errors.push({ path, message });
    });
  }
  return errors;
}

/**
 * Checks the `plugins` of a monitoring update against the security plugin catalog.
 * @example
 * ```ts
 * checkPlugins({ harmful: ['harmful:hate', 'harmful:nope'] });
 * // [{ path: 'plugins.harmful[1]', message: 'unknown plugin "harmful:nope" in category "harmful"; known: ...' }]
 * ```
 */
export function checkPlugins(plugins: Plugins): FieldError[] {
  return checkPluginsAgainst(securityPluginCatalog, plugins);
}
