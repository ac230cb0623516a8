import { treeShakableBuild } from '../../tsup.shared.js';

// p-queue (and its p-timeout) are ESM-only: bundled, so the CJS build loads on Node 20 without
// require(esm). eventemitter3 goes along so both builds share one copy. `shims` gives the CJS
// build `import.meta.url`, used to require the optional peers synchronously.
// `pipeline` is the entry @aqm/forwarder feeds decoded OTLP through (one pipeline, no second mapping);
// `spill` is what `aqm spill` reads of a persistDir folder, without loading OpenTelemetry.
// The client, loaded on first send with `import()` (export/lazy-client.ts), is a `require()` in the
// CJS build: the client's CJS copy, and no `import()` where a test runner cannot run one (Jest).
export default treeShakableBuild(
  { index: 'src/index.ts', pipeline: 'src/pipeline.ts', spill: 'src/spill.ts' },
  {
    noExternal: ['p-queue', 'p-timeout', 'eventemitter3'],
    shims: true,
    esbuildOptions(options, { format }) {
      if (format === 'cjs') options.supported = { ...options.supported, 'dynamic-import': false };
    },
  },
);
