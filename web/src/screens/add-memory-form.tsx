import { useState } from 'preact/hooks';
import { Memory, MEMORY_KINDS } from '../api/schemas';
import { toApiError, useSession, userPath } from '../api/use-api';
import type { ApiError } from '../api/client';
import { readImportance } from '../api/memory-patch';
import { DEFAULT_IMPORTANCE } from '../../../src/domain/memory';
import { ErrorBanner } from '../components/error-banner';
import { kindName, useI18n } from '../i18n/i18n';

/** Adds a memory by hand (source "manual"). */
export function AddMemoryForm({ onDone }: { onDone: (added: boolean) => void }) {
  const { t, lang } = useI18n();
  const { client, userId } = useSession();
  const [content, setContent] = useState('');
  const [kind, setKind] = useState('fact');
  const [importance, setImportance] = useState(String(DEFAULT_IMPORTANCE));
  const [error, setError] = useState<ApiError>();
  const [invalid, setInvalid] = useState(false);
  const submit = async () => {
    // An empty field means the server's default importance (Number('') was 0, saved as 0.00).
    const value = readImportance(importance);
    if (value === 'invalid') return setInvalid(true);
    try {
      await client.post(Memory, userPath(userId, '/memories'), { content, kind, ...(value === undefined ? {} : { importance: value }) });
      onDone(true);
    } catch (e) {
      setError(toApiError(e));
    }
  };
  return (
    <form class="card add-form" aria-labelledby="add-h" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
      <h2 id="add-h">{t('addTitle')}</h2>
      <label for="add-content">{t('content')}</label>
      <textarea id="add-content" dir="auto" required rows={3} value={content} onInput={(e) => setContent(e.currentTarget.value)} />
      <div class="row">
        <label>{t('kind')}<select id="add-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          {MEMORY_KINDS.map((k) => <option key={k} value={k}>{kindName(lang, k)}</option>)}</select></label>
        <label>{t('importance')}<input id="add-importance" type="number" min={0} max={1} step="any" value={importance} placeholder={t('importanceDefault', { value: DEFAULT_IMPORTANCE })}
          onInput={(e) => { setImportance(e.currentTarget.value); setInvalid(false); }} aria-invalid={invalid} aria-describedby={invalid ? 'add-importance-error' : undefined} /></label>
      </div>
      {invalid && <p id="add-importance-error" class="error" role="alert">{t('importanceInvalid')}</p>}
      <ErrorBanner error={error} />
      <div class="row end">
        <button type="button" onClick={() => onDone(false)}>{t('cancel')}</button>
        <button type="submit" class="primary">{t('save')}</button>
      </div>
    </form>
  );
}
