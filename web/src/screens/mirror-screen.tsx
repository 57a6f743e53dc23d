import { z } from 'zod';
import { useAsync, useSession, userPath } from '../api/use-api';
import { ErrorBanner, Loading } from '../components/error-banner';
import { useI18n } from '../i18n/i18n';

const MirrorText = z.union([
  z.string(),
  z.looseObject({ markdown: z.string() }).transform((o) => o.markdown),
  z.looseObject({ text: z.string() }).transform((o) => o.text),
  z.looseObject({ content: z.string() }).transform((o) => o.content),
  z.null(),
]);

/** The memory.md mirror as the server renders it, shown as plain text (never as HTML). */
export function MirrorScreen() {
  const { t } = useI18n();
  const { client, userId, liveVersion } = useSession();
  const mirror = useAsync(() => client.get(MirrorText, userPath(userId, '/mirror')), [userId, liveVersion]);
  return (
    <section aria-labelledby="mirror-h">
      <h1 id="mirror-h">{t('mirrorTitle')}</h1>
      <ErrorBanner error={mirror.error} onRetry={mirror.reload} />
      <Loading when={mirror.loading} />
      {mirror.data === null && <p class="muted">{t('mirrorNone')}</p>}
      {mirror.data && <pre class="markdown" dir="auto">{mirror.data}</pre>}
    </section>
  );
}
