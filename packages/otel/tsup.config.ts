import { packageBuild } from '../../tsup.shared.js';

// p-queue (and its p-timeout) are ESM-only: bundled, so the CJS build loads on Node 20 without
// require(esm). eventemitter3 goes along so both builds share one copy. `shims` gives the CJS
// build `import.meta.url`, used to require the optional peers synchronously.
export default packageBuild(
  { index: 'src/index.ts', spill: 'src/spill-entry.ts' },
  { noExternal: ['p-queue', 'p-timeout', 'eventemitter3'], shims: true },
);
