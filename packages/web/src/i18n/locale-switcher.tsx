import { useLocale } from './i18n-provider.js';
import { type Locale, supportedLocales } from './locale.js';
import { useT } from './use-t.js';

/** Each language named in itself, so a user who cannot read the current one still finds theirs. */
const nativeNames: Record<Locale, string> = { en: 'English', 'zh-CN': '简体中文' };

/** The language switch of the top bar (the choice is saved in this browser). */
export function LocaleSwitcher() {
  const { locale, setLocale } = useLocale();
  const t = useT();
  return (
    <label className="locale-switcher">
      <span className="visually-hidden">{t('shell.language')}</span>
      <select value={locale} onChange={(event) => setLocale(event.target.value as Locale)}>
        {supportedLocales.map((item) => (
          <option key={item} value={item} lang={item}>
            {nativeNames[item]}
          </option>
        ))}
      </select>
    </label>
  );
}
