import { useI18n, type Lang } from '../i18n/i18n';

export function LanguageSwitch() {
  const { lang, setLang, t } = useI18n();
  return (
    <label class="lang">
      <span class="sr-only">{t('language')}</span>
      <select aria-label={t('language')} value={lang} onChange={(e) => setLang(e.currentTarget.value as Lang)}>
        <option value="zh">中文</option>
        <option value="en">English</option>
      </select>
    </label>
  );
}
