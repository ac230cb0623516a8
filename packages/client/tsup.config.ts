import { treeShakableBuild } from '../../tsup.shared.js';

// `light`: the base-URL check alone, for what loads on an app's start (the client comes on first send).
export default treeShakableBuild({ index: 'src/index.ts', light: 'src/light.ts' });
