import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { toApiError, useAsync, useSession, userPath } from '../api/use-api';
import { ErrorBanner, Loading } from '../components/error-banner';
import { useI18n } from '../i18n/i18n';
import { StoredText } from '../components/stored-text';

/** The memory.md (or learnings.md) mirror as the server has it, shown as plain text (never as HTML). */
export function MirrorScreen() {
  const { t } = useI18n();
  const { client, userId, liveVersion } = useSession();
  const [file, setFile] = useState<'memory' | 'learnings'>('memory');
  const mirror = useAsync(async () => {
    try {
      return await (await client.send('GET', `${userPath(userId, '/mirror')}?file=${file}`)).text();
    } catch (e) {
      // No workspace on this server, or no file yet: said in words, not as an error.
      if (e instanceof ApiError && (e.code === 'CONFIG_INVALID' || e.code === 'NOT_FOUND')) return { absent: e.code };
      throw toApiError(e);
    }
  }, [userId, file, liveVersion]);
  const d = mirror.data;
  return (
    <section aria-labelledby="mirror-h">
      <div class="row between">
        <h1 id="mirror-h">{t('mirrorTitle')}</h1>
        <label>{t('mirrorFile')} <select value={file} onChange={(e) => setFile(e.currentTarget.value === 'learnings' ? 'learnings' : 'memory')}>
          <option value="memory">memory.md</option><option value="learnings">learnings.md</option></select></label>
      </div>
      <ErrorBanner error={mirror.error} onRetry={mirror.reload} />
      <Loading when={mirror.loading} />
      {typeof d === 'object' && <p class="muted">{t(d.absent === 'CONFIG_INVALID' ? 'mirrorNone' : 'mirrorMissing')}</p>}
      {typeof d === 'string' && <pre class="markdown" dir="auto"><StoredText text={d} /></pre>}
    </section>
  );
}
