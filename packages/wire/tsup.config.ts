import { treeShakableBuild } from '../../tsup.shared.js';

// `light`: the limits, PII detectors and text helpers without zod, for what loads on an app's start.
export default treeShakableBuild({ index: 'src/index.ts', light: 'src/light.ts' });
