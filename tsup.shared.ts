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

/**
 * The recipe for packages with light exports next to heavy ones (@aqm/wire, @aqm/client,
 * @aqm/otel): the ESM build keeps one file per source module (shared code and bundled
 * dependencies go to chunks), so that a bundler, told by `sideEffects: false`, drops whole modules
 * an app does not use (`import { maskPII } from '@aqm/otel'` leaves undici and zod out). A single
 * bundled file defeats that: a bundler can only shake statements inside it, and class declarations
 * with `extends` or top-level calls keep the rest alive. The CJS build stays one file. The two
 * builds run side by side, so neither cleans dist: the package's build script empties it first.
 */
export function treeShakableBuild(entry: Record<string, string>, overrides: Options = {}) {
  return [
    packageBuild(entry, {
      ...overrides,
      entry: ['src/**/*.ts'],
      format: ['esm'],
      splitting: true,
      dts: { entry },
      clean: false,
    }),
    packageBuild(entry, { ...overrides, format: ['cjs'], clean: false }),
  ];
}
