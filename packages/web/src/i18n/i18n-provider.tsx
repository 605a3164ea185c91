import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { IntlProvider } from 'react-intl';
import { type Locale, saveLocale } from './locale.js';
import { type Catalogue, loadCatalogue, setActiveCatalogue } from './messages/index.js';

interface LocaleChoice {
  locale: Locale;
  setLocale: (locale: Locale) => void;
}

const LocaleContext = createContext<LocaleChoice | undefined>(undefined);

/** A locale with its catalogue, loaded. */
export interface LoadedLocale {
  locale: Locale;
  catalogue: Catalogue;
}

/**
 * The console's language: react-intl's provider with the catalogue of the chosen locale, the
 * choice itself (saved in this browser), and `<html lang>` kept in step so screen readers and
 * the browser's font choice (CJK glyphs) follow the language shown. It starts with a catalogue
 * already loaded (`main.tsx` loads it in parallel with the page); a switch loads the other one,
 * and the page keeps its words until it has arrived.
 */
export function I18nProvider({ children, initial }: { children: ReactNode; initial: LoadedLocale }) {
  const [shown, setShown] = useState<LoadedLocale>(() => {
    setActiveCatalogue(initial.catalogue);
    return initial;
  });
  const setLocale = useCallback((next: Locale) => {
    saveLocale(next);
    void loadCatalogue(next).then((catalogue) => {
      setActiveCatalogue(catalogue);
      setShown({ locale: next, catalogue });
    });
  }, []);
  const { locale, catalogue } = shown;
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const choice = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);
  return (
    <LocaleContext.Provider value={choice}>
      <IntlProvider locale={locale} defaultLocale="en" messages={catalogue}>
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
