import { packageBuild } from '../../tsup.shared.js';

export default packageBuild({ index: 'src/index.ts', cli: 'src/cli.ts' });
