import { useState } from 'preact/hooks';
import { z } from 'zod';
import { toApiError, useAsync, useSession, userPath } from '../api/use-api';
import type { ApiError } from '../api/client';
import { Confirm } from '../components/confirm';
import { ErrorBanner } from '../components/error-banner';
import { StoredText } from '../components/stored-text';
import { formatDate, useI18n } from '../i18n/i18n';
import { visibleText } from '../lib/visible-text';

// GET /forgotten (src/server/routes/users.ts): what requests in conversation forgot, newest first.
const Forgotten = z.looseObject({
  items: z.array(z.looseObject({ id: z.string(), at: z.string(), expiresAt: z.string(), request: z.string(), memories: z.number(), messages: z.number(), todos: z.number() })),
});
const Undone = z.looseObject({ memories: z.number(), messages: z.number(), todos: z.number() });
const Erased = z.looseObject({ memories: z.number(), messages: z.number() });
type Item = z.infer<typeof Forgotten>['items'][number];

/**
 * What the user asked in conversation to forget ("忘掉我前女友的事"), kept a week to be undone:
 * each request with what it took, brought back with Undo or erased now (asked first).
 */
export function ForgottenCard() {
  const { t, lang } = useI18n();
  const { client, userId } = useSession();
  const list = useAsync(() => client.get(Forgotten, userPath(userId, '/forgotten')), [client, userId]);
  const [error, setError] = useState<ApiError>();
  const [done, setDone] = useState('');
  const [erasing, setErasing] = useState<Item>();
  const act = async (run: () => Promise<string>) => {
    setError(undefined);
    setDone('');
    try {
      setDone(await run());
    } catch (e) {
      setError(toApiError(e));
    }
    list.reload();
  };
  const undo = (item: Item) =>
    act(async () => {
      const r = await client.post(Undone, userPath(userId, `/forgotten/${encodeURIComponent(item.id)}/undo`));
      return t('forgottenUndone', { memories: r.memories, messages: r.messages, todos: r.todos });
    });
  const erase = (item: Item) =>
    act(async () => {
      setErasing(undefined);
      const r = await client.remove(Erased, userPath(userId, `/forgotten/${encodeURIComponent(item.id)}`));
      return t('forgottenErased', { memories: r.memories, messages: r.messages });
    });
  const items = list.data?.items ?? [];
  return (
    <div class="card forgotten">
      <h2>{t('forgottenTitle')}</h2>
      <p class="muted">{t('forgottenHelp')}</p>
      <ErrorBanner error={list.error ?? error} />
      {done && <p role="status">{done}</p>}
      {list.data && items.length === 0 && <p class="muted">{t('forgottenNone')}</p>}
      {items.length > 0 && (
        <ul class="list forgotten-list">
          {items.map((item) => (
            <li key={item.id}>
              <div class="grow">
                <p class="request" dir="auto"><StoredText text={item.request} /></p>
                <p class="muted small">
                  {t('forgottenWhat', { when: formatDate(lang, item.at), memories: item.memories, messages: item.messages })}
                  {' · '}
                  {t('forgottenUntil', { when: formatDate(lang, item.expiresAt) })}
                </p>
              </div>
              <div class="row end">
                <button type="button" class="primary" onClick={() => void undo(item)}>{t('forgottenUndo')}</button>
                <button type="button" class="danger" onClick={() => setErasing(item)}>{t('forgottenErase')}</button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {erasing && <Confirm danger message={t('confirmForgottenErase', { request: visibleText(erasing.request) })} onConfirm={() => void erase(erasing)} onCancel={() => setErasing(undefined)} />}
    </div>
  );
}
