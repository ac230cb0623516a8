import { describe, expect, it } from 'vitest';
import { checkPluginsAgainst } from '../src/catalog/check-plugins.js';
import { checkPlugins, securityPluginCatalog } from '../src/catalog/index.js';

const ids = (category: string) => securityPluginCatalog[category]?.map((plugin) => plugin.type).join(', ');

describe('checkPlugins', () => {
  it('accepts every catalog plugin under its category, and empty lists', () => {
    const all = Object.fromEntries(
      Object.entries(securityPluginCatalog).map(([category, plugins]) => [
        category,
        plugins.map((p) => p.type),
      ]),
    );
    expect(checkPlugins(all)).toEqual([]);
    expect(checkPlugins({ harmful: [], bias: [] })).toEqual([]);
    expect(checkPlugins({})).toEqual([]);
  });

  it('names an unknown category at plugins.<category>', () => {
    expect(checkPlugins({ harmful: ['harmful:hate'], unknown: ['unknown:x'] })).toEqual([
      { path: 'plugins.unknown', message: 'unknown plugin category "unknown"; known: harmful, bias, pii' },
    ]);
  });

  it('does not take inherited object keys for categories', () => {
    expect(checkPlugins({ toString: [] })).toEqual([
      { path: 'plugins.toString', message: 'unknown plugin category "toString"; known: harmful, bias, pii' },
    ]);
  });

  it('names an unknown id at plugins.<category>[i] with the ids of the category', () => {
    expect(checkPlugins({ bias: ['bias:age', 'bias:height'], harmful: ['harmful:hate', 'hate'] })).toEqual([
      {
        path: 'plugins.bias[1]',
        message: `unknown plugin "bias:height" in category "bias"; known: ${ids('bias')}`,
      },
      {
        path: 'plugins.harmful[1]',
        message: `unknown plugin "hate" in category "harmful"; known: ${ids('harmful')}`,
      },
    ]);
  });

  it('points out an id filed under the wrong category', () => {
    expect(checkPlugins({ harmful: ['pii:direct'] })).toEqual([
      { path: 'plugins.harmful[0]', message: 'plugin "pii:direct" belongs to category "pii", not "harmful"' },
    ]);
  });

  it('checks against any catalog it is given', () => {
    const catalog = { security: [{ type: 'security:sql', description: 'SQL injection' }] };
    expect(checkPluginsAgainst(catalog, { security: ['security:sql', 'security:xss'] })).toEqual([
      {
        path: 'plugins.security[1]',
        message: 'unknown plugin "security:xss" in category "security"; known: security:sql',
      },
    ]);
  });
});
