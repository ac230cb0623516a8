import { packageBuild } from '../../tsup.shared.js';

// string-width (ESM-only, a devDependency) is bundled, as tsup does with what is not a dependency,
// so the CJS build loads on Node 20 without require(esm) and installs bring nothing more.
export default packageBuild({ index: 'src/index.ts', cli: 'src/cli.ts' });
