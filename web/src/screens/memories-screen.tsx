import { useEffect, useState } from 'preact/hooks';
import { MemoryPage, MEMORY_KINDS, MEMORY_STATUSES, type Memory } from '../api/schemas';
import { toApiError, useSession, userPath } from '../api/use-api';
import type { ApiError } from '../api/client';
import { Confirm } from '../components/confirm';
import { ErrorBanner, Loading } from '../components/error-banner';
import { ago, ImportanceMeter, KindTag } from '../components/memory-bits';
import { kindName, useI18n } from '../i18n/i18n';
import { href } from '../lib/route';
import { StoredText } from '../components/stored-text';
import { visibleText } from '../lib/visible-text';
import { AddMemoryForm } from './add-memory-form';

interface Filters {
  q: string; kind: string; status: string; core: string; from: string; to: string; sort: string; order: string;
  /** A search shows every match, weak ones too (else only those at the context block's floor or above). */
  everyMatch?: boolean;
}
/** A search leaves out memories less relevant than this (calibrated, 0–1): the context block's own floor. */
const SEARCH_FLOOR = 0.3;
const INITIAL: Filters = { q: '', kind: '', status: 'active', core: '', from: '', to: '', sort: 'updatedAt', order: 'desc' };
const PAGE = 25;

/** The memory table: search, filters, sort, cursor pagination, bulk delete, add by hand. */
export function MemoriesScreen() {
  const { t, lang } = useI18n();
  const { client, userId, liveVersion } = useSession();
  const [filters, setFilters] = useState(INITIAL);
  const [applied, setApplied] = useState(INITIAL);
  const [items, setItems] = useState<Memory[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ApiError>();
  // A failed bulk delete, shown beside the delete button (the list's own load error has Retry).
  const [deleteError, setDeleteError] = useState<ApiError>();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [adding, setAdding] = useState(false);

  const load = async (after: string | null) => {
    setLoading(true);
    setError(undefined);
    try {
      const f = applied;
      const page = await client.get(MemoryPage, userPath(userId, '/memories'), {
        q: f.q, ...(f.q.trim() && !f.everyMatch ? { minRelevance: SEARCH_FLOOR } : {}), kind: f.kind, status: f.status || MEMORY_STATUSES.join(','), core: f.core, sort: f.sort, order: f.order, limit: PAGE, cursor: after,
        from: f.from ? new Date(f.from).toISOString() : '', to: f.to ? new Date(`${f.to}T23:59:59`).toISOString() : '',
      });
      setItems((old) => (after ? [...old, ...page.items] : page.items));
      setCursor(page.nextCursor ?? null);
    } catch (e) {
      setError(toApiError(e));
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => { setSelected(new Set()); void load(null); }, [applied, userId, liveVersion]);

  // A text query ranks by relevance on the server: sort and order do not apply to it.
  const searching = filters.q.trim() !== '';
  const set = (k: keyof Filters) => (e: { currentTarget: { value: string } }) => setFilters({ ...filters, [k]: e.currentTarget.value });
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id); else next.add(id);
    setSelected(next);
  };
  const allSelected = items.length > 0 && items.every((m) => selected.has(m.id));
  const deleteSelected = async () => {
    setConfirming(false);
    setDeleteError(undefined);
    try {
      for (const id of selected) await client.del(userPath(userId, `/memories/${encodeURIComponent(id)}`));
    } catch (e) {
      setDeleteError(toApiError(e));
    }
    setSelected(new Set());
    void load(null);
  };

  return (
    <section aria-labelledby="memories-h">
      <div class="row between">
        <h1 id="memories-h">{t('navMemories')}</h1>
        <button type="button" class="primary" aria-expanded={adding} onClick={() => setAdding(!adding)}>{t('add')}</button>
      </div>
      {adding && <AddMemoryForm onDone={(added) => { setAdding(false); if (added) void load(null); }} />}
      <form class="filters" role="search" onSubmit={(e) => { e.preventDefault(); setApplied(filters); }}>
        <label class="grow">{t('search')}<input type="search" name="q" placeholder={t('searchPlaceholder')} value={filters.q} onInput={set('q')} /></label>
        <label>{t('kind')}<select name="kind" value={filters.kind} onChange={set('kind')}>
          <option value="">{t('any')}</option>{MEMORY_KINDS.map((k) => <option key={k} value={k}>{kindName(lang, k)}</option>)}</select></label>
        <label>{t('status')}<select name="status" value={filters.status} onChange={set('status')}>
          <option value="">{t('any')}</option>{MEMORY_STATUSES.map((k) => <option key={k} value={k}>{kindName(lang, k)}</option>)}</select></label>
        <label>{t('core')}<select name="core" value={filters.core} onChange={set('core')}>
          <option value="">{t('any')}</option><option value="true">{t('yes')}</option><option value="false">{t('no')}</option></select></label>
        <label>{t('from')}<input type="date" name="from" value={filters.from} onInput={set('from')} /></label>
        <label>{t('to')}<input type="date" name="to" value={filters.to} onInput={set('to')} /></label>
        <label>{t('sort')}<select name="sort" value={filters.sort} onChange={set('sort')} disabled={searching}>
          <option value="updatedAt">{t('sortUpdated')}</option><option value="createdAt">{t('sortCreated')}</option><option value="importance">{t('sortImportance')}</option></select></label>
        <label>{t('order')}<select name="order" value={filters.order} onChange={set('order')} disabled={searching}>
          <option value="desc">{t('desc')}</option><option value="asc">{t('asc')}</option></select></label>
        <button type="submit" class="primary">{t('search')}</button>
      </form>
      <ErrorBanner error={error} onRetry={() => void load(null)} />
      {applied.q.trim() && (
        <p class="note search-note" role="status">
          {t(applied.everyMatch ? 'searchRanked' : 'searchFiltered')}{' '}
          <button type="button" class="link" onClick={() => setApplied({ ...applied, everyMatch: !applied.everyMatch })}>{t(applied.everyMatch ? 'searchOnlyGood' : 'searchShowAll')}</button>
        </p>
      )}
      <div class="row bulk" aria-live="polite">
        <span>{t('selectedCount', { n: selected.size })}</span>
        <button type="button" class="danger" disabled={selected.size === 0} onClick={() => setConfirming(true)}>{t('deleteSelected')}</button>
      </div>
      <ErrorBanner error={deleteError} />
      {confirming && <Confirm danger message={t('confirmDeleteMany', { n: selected.size })} onConfirm={() => void deleteSelected()} onCancel={() => setConfirming(false)} />}
      <div class="table-wrap">
        <table class="memories">
          <thead>
            <tr>
              <th scope="col"><input type="checkbox" aria-label={t('selectAll')} checked={allSelected}
                onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((m) => m.id)))} /><span class="select-all-label" aria-hidden="true">{t('selectAll')}</span></th>
              <th scope="col">{t('content')}</th><th scope="col">{t('kind')}</th><th scope="col">{t('status')}</th>
              <th scope="col">{t('importance')}</th><th scope="col">{t('recency')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((m) => (
              <tr key={m.id} class={`status-${m.status}`} data-memory-id={m.id}>
                <td><input type="checkbox" aria-label={`${t('select')}: ${visibleText(m.content).slice(0, 40)}`} checked={selected.has(m.id)} onChange={() => toggle(m.id)} /></td>
                <td class="content-cell" dir="auto"><a href={href('memory', m.id)}><StoredText text={m.content} /></a>{m.core && <span class="tag core">{t('core')}</span>}</td>
                <td><KindTag kind={m.kind} /></td>
                <td>{kindName(lang, m.status)}</td>
                <td><ImportanceMeter value={m.importance} /></td>
                <td title={m.lastAccessedAt ?? m.updatedAt}>{ago(lang, m.lastAccessedAt ?? m.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!loading && items.length === 0 && !error && <p class="muted">{t('empty')}</p>}
      <Loading when={loading} />
      {cursor && !loading && <button type="button" onClick={() => void load(cursor)}>{t('more')}</button>}
    </section>
  );
}
