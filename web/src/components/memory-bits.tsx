import { kindName, useI18n, type Lang } from '../i18n/i18n';

/** Importance as a meter plus its number. */
export function ImportanceMeter({ value }: { value: number }) {
  const { t } = useI18n();
  return (
    <span class="meter-wrap">
      <meter min={0} max={1} value={value} aria-label={t('importance')} /> <span class="num">{value.toFixed(2)}</span>
    </span>
  );
}

export function KindTag({ kind }: { kind: string }) {
  const { lang } = useI18n();
  return <span class={`tag kind-${kind}`}>{kindName(lang, kind)}</span>;
}

/** "3 days ago" in the interface language. */
export function ago(lang: Lang, iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return iso;
  const s = Math.round((then - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(lang === 'zh' ? 'zh-CN' : 'en', { numeric: 'auto' });
  const abs = Math.abs(s);
  if (abs < 60) return rtf.format(s, 'second');
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(s / 3600), 'hour');
  if (abs < 86400 * 60) return rtf.format(Math.round(s / 86400), 'day');
  return rtf.format(Math.round(s / (86400 * 30)), 'month');
}
