import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

// Three layers: `unit` runs against each package's source (aliased), `integration` and
// `http` run against the built packages as users install them.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        resolve: {
          alias: [
            { find: /^@aqm\/([a-z-]+)$/, replacement: `${root}packages/$1/src/index.ts` },
            // Subpath entries (`@aqm/otel/pipeline`) resolve to their source file too.
            { find: /^@aqm\/([a-z-]+)\/([a-z-]+)$/, replacement: `${root}packages/$1/src/$2.ts` },
          ],
        },
        test: { name: 'unit', include: ['packages/*/test/**/*.test.ts'] },
      },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'] } },
      { extends: true, test: { name: 'http', include: ['test/http/**/*.test.ts'] } },
    ],
  },
});
