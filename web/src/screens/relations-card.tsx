import { useState } from 'preact/hooks';
import { listOf, Relation } from '../api/schemas';
import { toApiError, useAsync, useSession } from '../api/use-api';
import type { ApiError } from '../api/client';
import { ErrorBanner } from '../components/error-banner';
import { kindName, useI18n } from '../i18n/i18n';
import { href } from '../lib/route';
import { StoredText } from '../components/stored-text';

const TYPES = ['supports', 'contradicts', 'refines'] as const;

/** A memory's relations (seed 004 §3.1): listed both ways, added to another memory by its id, removed one by one. */
export function RelationsCard({ base, memoryId }: { base: string; memoryId: string }) {
  const { t, lang } = useI18n();
  const { client } = useSession();
  const relations = useAsync(() => client.get(listOf(Relation), `${base}/relations`), [base]);
  const [target, setTarget] = useState('');
  const [type, setType] = useState<(typeof TYPES)[number]>('supports');
  const [error, setError] = useState<ApiError>();

  const run = async (work: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await work();
      relations.reload();
    } catch (e) {
      setError(toApiError(e));
    }
  };
  const add = (e: Event) => {
    e.preventDefault();
    const targetId = target.trim();
    if (targetId === '') return;
    void run(async () => {
      await client.post(Relation, `${base}/relations`, { targetId, type });
      setTarget('');
    });
  };

  return (
    <section class="card" aria-labelledby="relations-h">
      <h2 id="relations-h">{t('relations')}</h2>
      <ErrorBanner error={relations.error} />
      <ErrorBanner error={error} />
      {relations.data?.length === 0 && <p class="muted">{t('noRelations')}</p>}
      <ul class="relations">
        {relations.data?.map((r) => {
          const other = r.sourceId === memoryId ? r.targetId : r.sourceId;
          return (
            <li key={r.id} data-relation-id={r.id}>
              <span class="tag" data-type={r.type}>{kindName(lang, r.type)}</span> <a href={href('memory', other)}>{other}</a>{r.reason && <span class="muted" dir="auto"> — <StoredText text={r.reason} /></span>}{' '}
              <button type="button" class="danger" aria-label={`${t('removeRelation')} ${kindName(lang, r.type)} ${other}`} onClick={() => void run(() => client.del(`${base}/relations/${encodeURIComponent(r.id)}`))}>{t('removeRelation')}</button>
            </li>
          );
        })}
      </ul>
      <form class="relation-form row" onSubmit={add}>
        <label>{t('relationType')} <select name="relation-type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as (typeof TYPES)[number])}>
          {TYPES.map((x) => <option key={x} value={x}>{kindName(lang, x)}</option>)}
        </select></label>
        <label>{t('relationTarget')} <input name="relation-target" value={target} onInput={(e) => setTarget((e.target as HTMLInputElement).value)} required /></label>
        <button type="submit">{t('addRelation')}</button>
      </form>
    </section>
  );
}
