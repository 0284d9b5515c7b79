#!/usr/bin/env node
// Entry of the `baram` command: registers tsx so the TypeScript core runs as is (no build step
// between a clean clone and a working CLI), then hands over to electron/main/cli/main.ts.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../electron/main/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
