import { packageBuild } from '../../tsup.shared.js';

// The scoring worker is an entry of its own (loaded by path next to index/cli); `shims` gives the
// CJS build the `import.meta.url` that locates it.
export default packageBuild(
  { index: 'src/index.ts', cli: 'src/cli.ts', 'scoring-worker': 'src/scoring-worker.ts' },
  { shims: true },
);
