import type { HistoryEvent } from '../api/schemas';
import { fieldName, formatDate, kindName, useI18n, type Lang } from '../i18n/i18n';
import { StoredText } from '../components/stored-text';

/** Fields whose values are words the server names (kinds, statuses), shown in the interface language. */
const NAMED_VALUES = new Set(['kind', 'status', 'source']);
const show = (lang: Lang, field: string, v: unknown): string =>
  typeof v === 'string' ? (NAMED_VALUES.has(field) ? kindName(lang, v) : v) : JSON.stringify(v);
/** A creation lists every field as changed; only these say what was created. */
const CREATED_FIELDS = ['content', 'kind', 'importance', 'status'];
const fieldsOf = (e: HistoryEvent): string[] => (e.action === 'create' ? e.changed.filter((f) => CREATED_FIELDS.includes(f)) : e.changed);

/** A memory's history, newest first: action, who (and which prompt@version), reason, before/after. */
export function HistoryTimeline({ events }: { events: HistoryEvent[] }) {
  const { t, lang } = useI18n();
  const sorted = [...events].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <ol class="timeline">
      {sorted.map((e) => (
        <li key={e.id} class={`action-${e.action}`}>
          <div class="row">
            <strong>{kindName(lang, e.action)}</strong>
            <span class="muted">{t('by')} <span class="actor" data-actor={e.actor}>{kindName(lang, e.actor)}</span>{e.producedBy && <> · <code>{e.producedBy}</code></>}</span>
            <time dateTime={e.at} class="muted">{formatDate(lang, e.at)}</time>
          </div>
          {e.reason && <p class="reason" dir="auto"><StoredText text={e.reason} /></p>}
          {fieldsOf(e).length > 0 && (
            <table class="changes">
              <thead><tr><th scope="col"></th>{e.action !== 'create' && <th scope="col">{t('before')}</th>}<th scope="col">{t('after')}</th></tr></thead>
              <tbody>
                {fieldsOf(e).map((field) => (
                  <tr key={field}>
                    <th scope="row" title={field}>{fieldName(lang, field)}</th>
                    {e.action !== 'create' && <td dir="auto" class="before">{e.before && field in e.before ? <StoredText text={show(lang, field, e.before[field])} /> : '—'}</td>}
                    <td dir="auto" class="after">{e.after && field in e.after ? <StoredText text={show(lang, field, e.after[field])} /> : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </li>
      ))}
    </ol>
  );
}
