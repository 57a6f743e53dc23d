import { useState } from 'preact/hooks';
import { z } from 'zod';
import { toApiError, useSession, userPath } from '../api/use-api';
import type { ApiError } from '../api/client';
import { Confirm } from '../components/confirm';
import { ErrorBanner } from '../components/error-banner';
import { useI18n } from '../i18n/i18n';
import { StoredText } from '../components/stored-text';
import { visibleText } from '../lib/visible-text';

// What POST /forget answers (src/server/routes/users.ts): a topic's erased ids and message count, or a user's row counts by table.
const TopicForgotten = z.looseObject({ forgotten: z.array(z.string()).default([]), messages: z.number().default(0) });
const UserForgotten = z.looseObject({ counts: z.record(z.string(), z.number()).default({}) });
// Its dry run for a topic: the memories that mention it (at least these would go).
const TopicPreview = z.looseObject({ wouldErase: z.array(z.looseObject({ id: z.string(), kind: z.string(), content: z.string() })).default([]) });

/**
 * Forgetting from the page: a topic, or everything about the user. Both really erase, so each asks
 * first: a topic with the memories that mention it (the API's dry run), everything with the user
 * id typed.
 */
export function ForgetCard() {
  const { t } = useI18n();
  const { client, userId, reloadUsers } = useSession();
  const path = userPath(userId, '/forget');
  const [topic, setTopic] = useState('');
  const [asking, setAsking] = useState<'topic' | 'all'>();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<ApiError>();
  const [done, setDone] = useState('');
  const [preview, setPreview] = useState<z.infer<typeof TopicPreview>['wouldErase']>([]);
  const ask = async (what: 'topic' | 'all') => {
    setError(undefined); setDone(''); setTyped(''); setPreview([]);
    if (what === 'topic') {
      try {
        setPreview((await client.post(TopicPreview, path, { topic: topic.trim(), dryRun: true })).wouldErase);
      } catch (e) {
        setError(toApiError(e));
        return;
      }
    }
    setAsking(what);
  };
  const forget = async (what: 'topic' | 'all') => {
    setAsking(undefined);
    try {
      if (what === 'topic') {
        const r = await client.post(TopicForgotten, path, { topic: topic.trim() });
        setDone(r.forgotten.length + r.messages === 0 ? t('forgetTopicNothing', { topic: topic.trim() })
          : t('forgetTopicDone', { topic: topic.trim(), memories: r.forgotten.length, messages: r.messages }));
        setTopic('');
      } else {
        const r = await client.post(UserForgotten, path, { all: true });
        setDone(t('forgetAllDone', { user: userId, memories: r.counts.memories ?? 0, messages: r.counts.messages ?? 0 }));
        // The user has no data left: the header's list no longer offers them (still selected here, showing the result).
        reloadUsers();
      }
    } catch (e) {
      setError(toApiError(e));
    }
  };
  return (
    <div class="card forget">
      <h2>{t('forgetTitle')}</h2>
      <p class="muted">{t('forgetHelp')}</p>
      <form class="row" aria-label={t('forgetTopicLabel')} onSubmit={(e) => { e.preventDefault(); if (topic.trim()) void ask('topic'); }}>
        <label class="grow">{t('forgetTopicLabel')}
          <input id="forget-topic" dir="auto" value={topic} maxLength={500} placeholder={t('forgetTopicHint')} onInput={(e) => setTopic(e.currentTarget.value)} />
        </label>
        <button type="submit" class="danger" disabled={!topic.trim()}>{t('forgetTopicButton')}</button>
      </form>
      <div class="row">
        <span class="forget-all">{t('forgetAllLabel')}</span>
        <button type="button" class="danger" onClick={() => void ask('all')}>{t('forgetAllButton')}</button>
      </div>
      <ErrorBanner error={error} />
      {done && <p role="status">{done}</p>}
      {asking === 'topic' && (
        <Confirm danger message={t('confirmForgetTopic', { topic: visibleText(topic.trim()) })} onConfirm={() => void forget('topic')} onCancel={() => setAsking(undefined)}>
          <p class="muted small">{t(preview.length > 0 ? 'forgetTopicPreview' : 'forgetTopicPreviewNone')}</p>
          {preview.length > 0 && <ul class="forget-preview">{preview.map((m) => <li key={m.id} dir="auto"><StoredText text={m.content} /></li>)}</ul>}
        </Confirm>
      )}
      {asking === 'all' && (
        <Confirm danger message={t('confirmForgetAll', { user: userId })} ready={typed === userId} onConfirm={() => void forget('all')} onCancel={() => setAsking(undefined)}>
          <label class="confirm-field">{t('forgetAllType', { user: userId })}
            <input id="forget-all-user" autocomplete="off" spellcheck={false} value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
          </label>
        </Confirm>
      )}
    </div>
  );
}
