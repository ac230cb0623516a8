#!/usr/bin/env node
// Committed launcher: the bin exists at install time, before dist/ is built in the workspace.
import '../dist/cli.js';
