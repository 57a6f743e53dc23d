/**
 * How to start a worker thread whose script sits beside the calling module: its compiled .js
 * there, or, running from TypeScript sources (tsx, vitest), its .ts through tsx's loader inside
 * the worker. `own` is the caller's `import.meta.url`; `name` the script's name without extension.
 */
export function workerEntry(own: string, name: string): [string | URL, { eval?: boolean }] {
  // The path, not the URL: tsx's own imports (tsImport) add a query to it.
  if (!new URL(own).pathname.endsWith('.ts')) return [new URL(`./${name}.js`, own), {}];
  const entry = new URL(`./${name}.ts`, own);
  entry.search = '';
  const tsx = import.meta.resolve('tsx/esm/api');
  return [`import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(own)}))`, { eval: true }];
}
