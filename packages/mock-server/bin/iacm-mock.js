#!/usr/bin/env node
// The `iacm-mock` command. A committed file (not dist/cli.js itself), so that package managers can link
// the bin before the package is built, as pnpm does in this repository's workspace.
import '../dist/cli.js';
