/**
 * A progress bar on stderr for work that takes seconds (reindex, import, lifecycle over all users),
 * drawn only when stderr is a terminal: pipes, files, CI logs and `--json` runs get nothing, so
 * scripts read clean output. Redraws at most once per percent.
 */
export interface Progress {
  update(done: number, total: number): void;
  done(): void;
}

export const noProgress: Progress = { update() {}, done() {} };

export function progressBar(label: string, stream: { isTTY?: boolean; write(text: string): unknown } = process.stderr, width = 30): Progress {
  if (!stream.isTTY) return noProgress;
  let last = -1;
  let drawn = false;
  return {
    update(done, total) {
      const pct = total <= 0 ? 100 : Math.min(100, Math.floor((done / total) * 100));
      if (pct === last) return;
      last = pct;
      drawn = true;
      const filled = Math.round((pct / 100) * width);
      stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${pct}% (${done}/${total})`);
    },
    done() {
      if (drawn) stream.write('\n');
    },
  };
}
