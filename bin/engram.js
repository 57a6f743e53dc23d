#!/usr/bin/env node
// Launcher for the `engram` CLI. Runs the compiled build when there is one, otherwise the
// TypeScript source through tsx's loader, in this same process. Paths are resolved from this
// file, so it works from any working directory.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = ['dist/cli/main.js', 'dist/src/cli/main.js'].map((p) => root + p).find((p) => existsSync(p));

if (built) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(root + 'src/cli/main.ts').href);
}
