import { useState } from 'preact/hooks';
import { Memory, MEMORY_KINDS } from '../api/schemas';
import { toApiError, useSession, userPath } from '../api/use-api';
import type { ApiError } from '../api/client';
import { ErrorBanner } from '../components/error-banner';
import { kindName, useI18n } from '../i18n/i18n';

/** Inline edit of content, kind and importance (PATCH). */
export function MemoryEditor({ memory, onDone }: { memory: Memory; onDone: (saved: boolean) => void }) {
  const { t, lang } = useI18n();
  const { client, userId } = useSession();
  const [content, setContent] = useState(memory.content);
  const [kind, setKind] = useState(memory.kind);
  const [importance, setImportance] = useState(String(memory.importance));
  const [error, setError] = useState<ApiError>();
  const save = async () => {
    try {
      await client.patch(Memory, userPath(userId, `/memories/${encodeURIComponent(memory.id)}`), { content, kind, importance: Number(importance) });
      onDone(true);
    } catch (e) {
      setError(toApiError(e));
    }
  };
  return (
    <form class="editor" onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <label for="edit-content">{t('content')}</label>
      <textarea id="edit-content" dir="auto" rows={4} required value={content} onInput={(e) => setContent(e.currentTarget.value)} />
      <div class="row">
        <label>{t('kind')}<select id="edit-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          {MEMORY_KINDS.map((k) => <option key={k} value={k}>{kindName(lang, k)}</option>)}</select></label>
        <label>{t('importance')}<input id="edit-importance" type="number" min={0} max={1} step={0.05} value={importance} onInput={(e) => setImportance(e.currentTarget.value)} /></label>
        <button type="submit" class="primary">{t('save')}</button>
        <button type="button" onClick={() => onDone(false)}>{t('cancel')}</button>
      </div>
      <ErrorBanner error={error} />
    </form>
  );
}
