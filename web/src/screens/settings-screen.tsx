import { useEffect, useState } from 'preact/hooks';
import { Settings } from '../api/schemas';
import { toApiError, useAsync, useSession, userPath } from '../api/use-api';
import type { ApiError } from '../api/client';
import { ErrorBanner, Loading } from '../components/error-banner';
import { useI18n } from '../i18n/i18n';
import { en, type MessageKey } from '../i18n/messages';

/** Settings that take one of a few words (src/domain/settings.ts): a select of them, each with its name for people. */
const CHOICES: Record<string, Record<string, MessageKey>> = { contextExcerpts: { auto: 'excerpts_auto', off: 'excerpts_off' } };

/** A setting's name for people, with its key beside it; unknown keys show as they are. */
const labelKey = (k: string): MessageKey | undefined => (`set_${k}` in en ? (`set_${k}` as MessageKey) : undefined);

/** The user's settings (seed 002's extraction settings and the rest), as the server lists them. */
export function SettingsScreen() {
  const { t } = useI18n();
  const { client, userId } = useSession();
  const path = userPath(userId, '/settings');
  const settings = useAsync(() => client.get(Settings, path), [path]);
  const [draft, setDraft] = useState<Record<string, unknown>>({});
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);
  useEffect(() => { if (settings.data) setDraft(settings.data); }, [settings.data]);
  const save = async () => {
    setSaved(false);
    setError(undefined);
    try {
      const changed = Object.fromEntries(Object.entries(draft).filter(([k, v]) => settings.data?.[k] !== v));
      setDraft(await client.put(Settings, path, changed));
      setSaved(true);
    } catch (e) {
      setError(toApiError(e));
    }
  };
  return (
    <section aria-labelledby="settings-h">
      <h1 id="settings-h">{t('settingsTitle')}</h1>
      <ErrorBanner error={settings.error} onRetry={settings.reload} />
      <Loading when={settings.loading} />
      <form class="card settings" onSubmit={(e) => { e.preventDefault(); void save(); }}>
        {Object.entries(draft).map(([k, v]) => {
          const id = `setting-${k}`;
          const lk = labelKey(k);
          const name = lk ? <>{t(lk)} <code class="small">{k}</code></> : <code>{k}</code>;
          if (typeof v === 'boolean') return <label key={k} class="check"><input id={id} type="checkbox" checked={v} onChange={(e) => setDraft({ ...draft, [k]: e.currentTarget.checked })} /> {name}</label>;
          if (typeof v === 'number') return <label key={k}>{name}<input id={id} type="number" step="any" value={v} onInput={(e) => setDraft({ ...draft, [k]: Number(e.currentTarget.value) })} /></label>;
          const choices = CHOICES[k];
          if (typeof v === 'string' && choices) {
            return <label key={k}>{name}<select id={id} value={v} onChange={(e) => setDraft({ ...draft, [k]: e.currentTarget.value })}>
              {[...new Set([...Object.keys(choices), v])].map((c) => <option key={c} value={c}>{choices[c] ? t(choices[c]) : c}</option>)}
            </select></label>;
          }
          if (typeof v === 'string') return <label key={k}>{name}<input id={id} value={v} onInput={(e) => setDraft({ ...draft, [k]: e.currentTarget.value })} /></label>;
          return <p key={k}><code>{k}</code>: <code>{JSON.stringify(v)}</code></p>;
        })}
        <div class="row end">
          <ErrorBanner error={error} />
          {saved && <span role="status">{t('settingsSaved')}</span>}
          <button type="submit" class="primary">{t('save')}</button>
        </div>
      </form>
    </section>
  );
}
