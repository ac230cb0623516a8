import { defineConfig, type Options } from 'tsup';

/**
 * The one build recipe every package uses: ESM + CJS with declarations for both,
 * so `import` and `require` consumers get matching types.
 */
export function packageBuild(entry: Record<string, string>, overrides: Options = {}) {
  return defineConfig({
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    splitting: false,
    shims: false,
    outExtension: ({ format }) => ({ js: format === 'cjs' ? '.cjs' : '.js' }),
    ...overrides,
  });
}
