import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { IntlProvider } from 'react-intl';
import { initialLocale, type Locale, saveLocale } from './locale.js';
import { catalogues } from './messages/index.js';

interface LocaleChoice {
  locale: Locale;
  setLocale: (locale: Locale) => void;
}

const LocaleContext = createContext<LocaleChoice | undefined>(undefined);

/**
 * The console's language: react-intl's provider with the catalogue of the chosen locale, the
 * choice itself (saved in this browser), and `<html lang>` kept in step so screen readers and
 * the browser's font choice (CJK glyphs) follow the language shown.
 */
export function I18nProvider({ children, locale: fixed }: { children: ReactNode; locale?: Locale }) {
  const [locale, setLocaleState] = useState<Locale>(() => fixed ?? initialLocale());
  const setLocale = useCallback((next: Locale) => {
    saveLocale(next);
    setLocaleState(next);
  }, []);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const choice = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);
  return (
    <LocaleContext.Provider value={choice}>
      <IntlProvider locale={locale} defaultLocale="en" messages={catalogues[locale]}>
        {children}
      </IntlProvider>
    </LocaleContext.Provider>
  );
}

/** The locale shown and the switch to another one. */
export function useLocale(): LocaleChoice {
  const choice = useContext(LocaleContext);
  if (!choice) throw new Error('useLocale() needs an <I18nProvider> above it.');
  return choice;
}
