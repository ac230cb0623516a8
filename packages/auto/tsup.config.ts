import { packageBuild } from '../../tsup.shared.js';

// `./register` has one source per format: the ESM entry awaits the LangChain handler with a
// top-level await, which a CommonJS file cannot. `shims` gives the CJS build `import.meta.url`
// (module.register's parent URL, createRequire, and telling the builds apart). The three builds
// run side by side, so none cleans dist (the build script empties it first).
export default [
  packageBuild({ index: 'src/index.ts' }, { shims: true, clean: false }),
  packageBuild({ register: 'src/register.ts' }, { format: ['esm'], shims: true, clean: false }),
  packageBuild({ register: 'src/register-require.ts' }, { format: ['cjs'], shims: true, clean: false }),
];
