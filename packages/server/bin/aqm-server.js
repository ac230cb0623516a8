#!/usr/bin/env node
// The `aqm-server` command. A committed launcher rather than dist/cli.js itself, so that package managers
// link the bin at the first install of a fresh clone, before dist/ is built.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  // Only in a clone of the repository: a published package always has dist/.
  process.stderr.write('aqm-server: not built yet (no dist/cli.js); run `pnpm build` first.\n');
  process.exit(1);
}
await import(cli.href);
