import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { en, zh, FIELD_NAMES, KIND_NAMES, type MessageKey } from './messages';

export type Lang = 'en' | 'zh';
export const LANG_STORAGE_KEY = 'engram.lang';

/** The saved choice, else the browser's first language: Chinese for any zh-*, English otherwise. */
export function detectLang(saved: string | null, languages: readonly string[]): Lang {
  if (saved === 'en' || saved === 'zh') return saved;
  for (const l of languages) {
    const low = l.toLowerCase();
    if (low.startsWith('zh')) return 'zh';
    if (low.startsWith('en')) return 'en';
  }
  return 'en';
}

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

export function translator(lang: Lang): Translate {
  const table = lang === 'zh' ? zh : en;
  return (key, vars) => {
    let s: string = table[key];
    if (vars) for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, String(v));
    return s;
  };
}

/** A value the server sends (kind, status, action, actor, source, role, relation type) in the interface language; unknown ones as they are. */
export function kindName(lang: Lang, kind: string): string {
  return KIND_NAMES[lang][kind] ?? kind;
}

/** A field name the server sends (a history field, a profile basic) in the interface language; unknown ones as they are. */
export function fieldName(lang: Lang, field: string): string {
  return FIELD_NAMES[lang][field] ?? field;
}

export interface I18n {
  lang: Lang;
  t: Translate;
  setLang: (lang: Lang) => void;
}

export const I18nContext = createContext<I18n>({ lang: 'en', t: translator('en'), setLang: () => undefined });
export const useI18n = (): I18n => useContext(I18nContext);

/** Dates in the interface language; in a given IANA time zone when one is known. */
export function formatDate(lang: Lang, iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(d);
  } catch (error) {
    // An unknown time zone name from settings: show the time in the browser's zone instead.
    console.warn('formatDate', error);
    return new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(d);
  }
}
