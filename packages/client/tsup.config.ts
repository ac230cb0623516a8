import { treeShakableBuild } from '../../tsup.shared.js';

export default treeShakableBuild({ index: 'src/index.ts' });
