import { useState } from 'preact/hooks';
import { Memory, MEMORY_KINDS } from '../api/schemas';
import { toApiError, useSession, userPath } from '../api/use-api';
import type { ApiError } from '../api/client';
import { changedFields, draftOf, patchOf, rebase, type DraftField, type MemoryDraft } from '../api/memory-patch';
import { ErrorBanner } from '../components/error-banner';
import { fieldName, kindName, useI18n } from '../i18n/i18n';

/**
 * Inline edit of content, kind and importance (PATCH). Only the fields the user changed are sent,
 * with the version the editor opened (If-Match): when someone else changed the memory meanwhile the
 * server refuses (412) instead of the page writing its stale copy back over their change, and the
 * editor offers the current version with the user's own edits kept on top (nothing typed is lost).
 */
export function MemoryEditor({ memory, onDone }: { memory: Memory; onDone: (saved: boolean) => void }) {
  const { t, lang } = useI18n();
  const { client, userId } = useSession();
  // The version the edit is based on: as opened (or reloaded), not the live `memory` beside it.
  const [opened, setOpened] = useState(memory);
  const [draft, setDraft] = useState<MemoryDraft>(() => draftOf(memory));
  const [refused, setRefused] = useState(false);
  const [reloaded, setReloaded] = useState(false);
  const [clashes, setClashes] = useState<DraftField[]>([]);
  const [invalid, setInvalid] = useState(false);
  const [error, setError] = useState<ApiError>();
  const path = userPath(userId, `/memories/${encodeURIComponent(memory.id)}`);
  // The screen reloads the memory as it changes: a newer version is said before a save is refused.
  const newer = memory.version !== undefined && opened.version !== undefined && memory.version !== opened.version;
  const elsewhere = changedFields(opened, memory);
  const set = (field: DraftField) => (e: { currentTarget: { value: string } }) => {
    setDraft((d) => ({ ...d, [field]: e.currentTarget.value }));
    if (field === 'importance') setInvalid(false);
  };

  const save = async () => {
    const { patch, invalid: bad } = patchOf(opened, draft);
    if (bad) return setInvalid(true);
    if (Object.keys(patch).length === 0) return onDone(false);
    setError(undefined);
    try {
      await client.patch(Memory, path, patch, opened.version ? { 'if-match': `"${opened.version}"` } : {});
      onDone(true);
    } catch (e) {
      const failure = toApiError(e);
      if (failure.code !== 'PRECONDITION_FAILED') return setError(failure);
      setRefused(true);
      setReloaded(false);
    }
  };
  const reload = async () => {
    setError(undefined);
    try {
      const current = await client.get(Memory, path);
      const next = rebase(opened, current, draft);
      setOpened(current);
      setDraft(next.draft);
      setClashes(next.clashes);
      setRefused(false);
      setReloaded(true);
    } catch (e) {
      setError(toApiError(e));
    }
  };
  const shown = (field: DraftField, value: string): string => (field === 'kind' ? kindName(lang, value) : value);
  const theirs = (field: DraftField) => clashes.includes(field) && (
    <p class="note small clash" data-field={field}>
      <span dir="auto">{t('editTheirs', { value: shown(field, draftOf(opened)[field]) })}</span>{' '}
      <button type="button" class="link" onClick={() => { setDraft((d) => ({ ...d, [field]: draftOf(opened)[field] })); setClashes((c) => c.filter((f) => f !== field)); }}>{t('editUseTheirs')}</button>
    </p>
  );

  return (
    <form class="editor" onSubmit={(e) => { e.preventDefault(); void save(); }}>
      {(refused || newer) && (
        <div class={refused ? 'error conflict' : 'note conflict'} role={refused ? 'alert' : 'status'} data-code={refused ? 'PRECONDITION_FAILED' : undefined}>
          <strong>{t(refused ? 'editConflict' : 'editChangedElsewhere')}</strong>
          {elsewhere.length > 0 && <> {t('editChangedFields', { fields: elsewhere.map((f) => fieldName(lang, f)).join(lang === 'zh' ? '、' : ', ') })}</>}{' '}
          <button type="button" class="reload" onClick={() => void reload()}>{t('editReload')}</button>
        </div>
      )}
      {reloaded && !refused && !newer && <p class="note" role="status">{t('editReloaded')}</p>}
      <label for="edit-content">{t('content')}</label>
      <textarea id="edit-content" dir="auto" rows={4} required value={draft.content} onInput={set('content')} />
      {theirs('content')}
      <div class="row">
        <label>{t('kind')}<select id="edit-kind" value={draft.kind} onChange={set('kind')}>
          {MEMORY_KINDS.map((k) => <option key={k} value={k}>{kindName(lang, k)}</option>)}</select></label>
        <label>{t('importance')}<input id="edit-importance" type="number" min={0} max={1} step="any" value={draft.importance} onInput={set('importance')}
          placeholder={t('importanceUnchanged', { value: opened.importance.toFixed(2) })} aria-invalid={invalid} aria-describedby={invalid ? 'edit-importance-error' : undefined} /></label>
        <button type="submit" class="primary">{t('save')}</button>
        <button type="button" onClick={() => onDone(false)}>{t('cancel')}</button>
      </div>
      {theirs('kind')}
      {theirs('importance')}
      {invalid && <p id="edit-importance-error" class="error" role="alert">{t('importanceInvalid')}</p>}
      <ErrorBanner error={error} />
    </form>
  );
}
