#!/usr/bin/env node
// The `aqm-fake-llm` command. A committed launcher rather than dist/cli.js itself, so that package managers
// link the bin at the first install of a fresh clone, before dist/ is built.
import '../dist/cli.js';
