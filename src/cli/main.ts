import { processIo } from './io.js';
import { run } from './run.js';

/** The `engram` executable: `tsx src/cli/main.ts <command>` or bin/engram.js. */
process.exitCode = await run(process.argv.slice(2), processIo());
