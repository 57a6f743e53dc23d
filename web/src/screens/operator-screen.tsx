import { useAsync, useSession } from '../api/use-api';
import { ApiError } from '../api/client';
import { BarChart, HistogramChart } from '../components/charts';
import { ErrorBanner, Loading } from '../components/error-banner';
import { kindName, useI18n } from '../i18n/i18n';
import { buckets, parseMetrics, sumBy, type Sample } from '../lib/prometheus';

/** The first metric whose name matches and that carries the label. */
const find = (samples: Sample[], test: RegExp, label: string) => samples.find((s) => test.test(s.name) && label in s.labels)?.name;

/**
 * Charts from `/metrics`: memories by kind, recall latency, model tokens per prompt. Asked only
 * once the key is known to be the admin's (`admin`); a tenant key would only meet a 403.
 */
export function OperatorScreen({ admin }: { admin: boolean | undefined }) {
  const { t, lang } = useI18n();
  const { client, liveVersion } = useSession();
  const metrics = useAsync(async () => {
    if (!admin) return undefined;
    const res = await client.send('GET', '/metrics');
    if (!res.ok) throw new ApiError(res.status, `HTTP_${res.status}`, res.statusText);
    return parseMetrics(await res.text());
  }, [liveVersion, admin]);
  const s = metrics.data ?? [];
  const kindMetric = find(s, /memor/i, 'kind');
  const latency = s.find((x) => /recall.*_bucket$/i.test(x.name))?.name.replace(/_bucket$/, '');
  const tokenMetric = find(s, /token/i, 'prompt');
  const bars = (m: Map<string, number>) => [...m.entries()].filter(([, v]) => v > 0).map(([label, value]) => ({ label, value })).sort((a, b) => b.value - a.value);
  // A tenant key can never read /metrics: say so instead of three empty charts.
  if (admin === false || metrics.error?.code === 'FORBIDDEN') {
    return (
      <section aria-labelledby="operator-h">
        <h1 id="operator-h">{t('operatorTitle')}</h1>
        <p class="note operator-admin-only">{t('operatorAdminOnly')}</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="operator-h">
      <h1 id="operator-h">{t('operatorTitle')}</h1>
      <ErrorBanner error={metrics.error} onRetry={metrics.reload} />
      <Loading when={metrics.loading || admin === undefined} />
      <div class="charts">
        <figure class="card"><figcaption>{t('chartKinds')}</figcaption>
          {kindMetric ? <BarChart title={t('chartKinds')} bars={bars(sumBy(s, kindMetric, 'kind', { status: 'active' })).map((b) => ({ ...b, label: kindName(lang, b.label) }))} /> : <p class="muted">{t('noMetrics')}</p>}</figure>
        <figure class="card"><figcaption>{t('chartLatency')}</figcaption>
          {latency ? <HistogramChart title={t('chartLatency')} buckets={buckets(s, latency).map(([le, n]): [number, number] => [le * 1000, n])} /> : <p class="muted">{t('noMetrics')}</p>}</figure>
        <figure class="card"><figcaption>{t('chartTokens')}</figcaption>
          {tokenMetric ? <BarChart title={t('chartTokens')} bars={bars(sumBy(s, tokenMetric, 'prompt'))} /> : <p class="muted">{t('noMetrics')}</p>}</figure>
      </div>
    </section>
  );
}
