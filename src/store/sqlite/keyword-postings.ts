import type { Bm25Params, KeywordHit } from './keyword-index.js';

/** A posting packs the row's slot and the term's count in it: slot · TF_RANGE + tf (exact in a double). */
const TF_RANGE = 65_536;

/** Rough bytes per posting (a double in a JS array) and per distinct term (map entry, array header, key). */
const POSTING_BYTES = 8;
const TERM_BYTES = 96;
const ROW_BYTES = 40;

/**
 * One user's keyword index held in memory: for each term, the rows that hold it and how often.
 * Rows keep a stable slot; a removed or rewritten row leaves a dead slot (its postings are
 * skipped), so writes cost only the new row's terms. Search scores BM25 over every match, with
 * the same formula and statistics as the FTS5 path (keyword-index.ts), and needs no candidate
 * limit: each query term's posting list is read once.
 */
export class UserPostings {
  private readonly slotOf = new Map<number, number>();
  private readonly rowids: number[] = [];
  /** Token count per slot; 0 marks a dead slot. */
  private readonly lengths: number[] = [];
  private readonly postings = new Map<string, number[]>();
  private entries = 0;
  private deadSlots = 0;
  private scratch = new Float64Array(0);

  /** Rows held (alive). */
  get size(): number {
    return this.slotOf.size;
  }

  /** Slots of removed or rewritten rows still taking space. */
  get dead(): number {
    return this.deadSlots;
  }

  get bytes(): number {
    return this.entries * POSTING_BYTES + this.postings.size * TERM_BYTES + this.rowids.length * ROW_BYTES + this.scratch.byteLength;
  }

  /** The row's terms as the index stores them (space-separated), or null when it is gone. */
  set(rowid: number, terms: string | null): void {
    this.remove(rowid);
    if (terms === null) return;
    const counts = new Map<string, number>();
    let length = 0;
    for (const t of terms.split(' ')) {
      if (t.length === 0) continue;
      length++;
      counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    if (length === 0) return;
    const slot = this.rowids.length;
    this.rowids.push(rowid);
    this.lengths.push(length);
    this.slotOf.set(rowid, slot);
    for (const [t, f] of counts) {
      let list = this.postings.get(t);
      if (!list) this.postings.set(t, (list = []));
      list.push(slot * TF_RANGE + Math.min(f, TF_RANGE - 1));
      this.entries++;
    }
  }

  remove(rowid: number): void {
    const slot = this.slotOf.get(rowid);
    if (slot === undefined) return;
    this.slotOf.delete(rowid);
    this.lengths[slot] = 0;
    this.deadSlots++;
  }

  /**
   * BM25 over every row holding any of the terms, best first (ties: lower rowid first).
   * `docCount` and `avgdl` are the user's statistics as the keyword_stats table keeps them.
   * `accept` limits the hits to some rows (statuses); every row still counts in the statistics.
   */
  search(terms: readonly string[], docCount: number, avgdl: number, params: Bm25Params, limit: number, accept?: (rowid: number) => boolean): KeywordHit[] {
    const { k1, b } = params;
    const lengths = this.lengths;
    let ideal = 0;
    const weighted: Array<{ list: number[]; w: number }> = [];
    for (const term of terms) {
      const list = this.postings.get(term);
      let df = 0;
      if (list) for (const e of list) if (lengths[Math.floor(e / TF_RANGE)]! > 0) df++;
      const w = Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
      ideal += w;
      if (list && df > 0) weighted.push({ list, w });
    }
    if (weighted.length === 0) return [];
    if (this.scratch.length < this.rowids.length) this.scratch = new Float64Array(Math.max(this.rowids.length, this.scratch.length * 2));
    const scores = this.scratch;
    const touched: number[] = [];
    const a = k1 * (1 - b);
    const c = (k1 * b) / avgdl;
    for (const { list, w } of weighted) {
      for (const e of list) {
        const slot = Math.floor(e / TF_RANGE);
        const length = lengths[slot]!;
        if (length === 0) continue;
        const f = e - slot * TF_RANGE;
        if (scores[slot] === 0) touched.push(slot);
        scores[slot] = scores[slot]! + (w * (f * (k1 + 1))) / (f + a + c * length);
      }
    }
    const best = topSlots(touched, scores, this.rowids, limit, accept);
    const hits = best.map((slot) => ({ rowid: this.rowids[slot]!, score: scores[slot]!, coverage: scores[slot]! / ideal }));
    for (const slot of touched) scores[slot] = 0;
    return hits;
  }
}

/**
 * The `limit` best slots by score (ties: lower rowid), best first, through a bounded min-heap.
 * `accept` is asked only of a slot that would enter the heap: most fail the comparison first
 * (asking it of every match cost 2.5 ms of a search at 100,000 rows).
 */
function topSlots(slots: readonly number[], scores: Float64Array, rowids: readonly number[], limit: number, accept?: (rowid: number) => boolean): number[] {
  // a is worse than b: lower score, or the same score and a higher rowid.
  const worse = (a: number, b: number): boolean => scores[a]! < scores[b]! || (scores[a] === scores[b] && rowids[a]! > rowids[b]!);
  const heap: number[] = [];
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const s of slots) {
    if (accept && (heap.length < limit || (limit > 0 && worse(heap[0]!, s))) && !accept(rowids[s]!)) continue;
    if (heap.length < limit) {
      heap.push(s);
      for (let i = heap.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    } else if (limit > 0 && worse(heap[0]!, s)) {
      heap[0] = s;
      down(0);
    }
  }
  return heap.sort((x, y) => (worse(x, y) ? 1 : worse(y, x) ? -1 : 0));
}
