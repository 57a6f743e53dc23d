import { useState } from 'preact/hooks';
import { listOf, Profile } from '../api/schemas';
import { useAsync, useSession, userPath } from '../api/use-api';
import { ErrorBanner, Loading } from '../components/error-banner';
import { fieldName, formatDate, useI18n, type Translate } from '../i18n/i18n';
import { diffWords } from '../lib/diff';
import { StoredText } from '../components/stored-text';

/** The note the heuristic profile builder writes in English (update-profile.ts), in the interface language; a model's own note as it is. */
function changesText(t: Translate, changes: string): string {
  const rebuilt = /^rebuilt from (\d+) current memories$/.exec(changes);
  if (rebuilt) return t('profileRebuilt', { n: rebuilt[1]! });
  return changes === 'a topic was forgotten' ? t('profileTopicForgotten') : changes;
}

/** The core profile, every version, and a word diff between any two. */
export function ProfileScreen() {
  const { t, lang } = useI18n();
  const { client, userId, liveVersion } = useSession();
  const versions = useAsync(() => client.get(listOf(Profile), userPath(userId, '/profile/versions')), [userId, liveVersion]);
  const list = [...(versions.data ?? [])].sort((a, b) => b.version - a.version);
  const [shown, setShown] = useState<number>();
  const [against, setAgainst] = useState<number>();
  const current = list.find((p) => p.version === shown) ?? list[0];
  const other = list.find((p) => p.version === (against ?? (current ? current.version - 1 : -1)));
  return (
    <section aria-labelledby="profile-h">
      <h1 id="profile-h">{t('navProfile')}</h1>
      <ErrorBanner error={versions.error} onRetry={versions.reload} />
      <Loading when={versions.loading} />
      {versions.data?.length === 0 && <p class="muted">{t('profileNone')}</p>}
      {current && (
        <div class="row top-align">
          <nav class="versions" aria-label={t('navProfile')}>
            <ol>
              {list.map((p) => (
                <li key={p.version}>
                  <button type="button" aria-pressed={p.version === current.version} onClick={() => { setShown(p.version); setAgainst(undefined); }}>
                    {t('profileVersion', { n: p.version })}</button>
                  <span class="muted small"> {formatDate(lang, p.createdAt)}</span>
                </li>
              ))}
            </ol>
          </nav>
          <article class="card grow">
            <h2>{t('profileVersion', { n: current.version })}</h2>
            {current.changes && <p class="muted profile-changes" dir="auto"><StoredText text={changesText(t, current.changes)} /></p>}
            {other ? (
              <p class="narrative diff" dir="auto" aria-label={`${t('profileDiff')} ${other.version}`}>
                {diffWords(other.narrative, current.narrative).map((part, i) =>
                  part.type === 'same' ? <span key={i}><StoredText text={part.text} /></span> : part.type === 'add' ? <ins key={i}><StoredText text={part.text} /></ins> : <del key={i}><StoredText text={part.text} /></del>)}
              </p>
            ) : <p class="narrative" dir="auto"><StoredText text={current.narrative} /></p>}
            {list.length > 1 && (
              <label>{t('profileDiff')} <select value={other?.version ?? ''} onChange={(e) => setAgainst(Number(e.currentTarget.value))}>
                {list.filter((p) => p.version !== current.version).map((p) => <option key={p.version} value={p.version}>{t('profileVersion', { n: p.version })}</option>)}
              </select></label>
            )}
            {Object.keys(current.basicInfo).length > 0 && (
              <><h3>{t('profileBasic')}</h3>
                <dl class="facts">{Object.entries(current.basicInfo).map(([k, v]) => <><dt key={`k-${k}`} dir="auto" title={k}>{fieldName(lang, k)}</dt><dd key={`v-${k}`} dir="auto"><StoredText text={v} /></dd></>)}</dl></>
            )}
          </article>
        </div>
      )}
    </section>
  );
}
