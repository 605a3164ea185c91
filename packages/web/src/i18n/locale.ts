/** The console's languages: English and Simplified Chinese (issue 35). */
export const supportedLocales = ['en', 'zh-CN'] as const;
export type Locale = (typeof supportedLocales)[number];

/** Where the user's choice is kept: this browser's localStorage (per browser, not yet per account). */
export const localeStorageKey = 'agentloom.locale';

/**
 * The supported locale closest to the browser's languages, in the user's order of preference:
 * any Chinese tag (`zh`, `zh-CN`, `zh-Hans-CN`, also `zh-TW` until a Traditional catalogue exists)
 * gives `zh-CN`, any English tag `en`; nothing known falls back to English.
 */
export function pickLocale(languages: readonly string[]): Locale {
  for (const language of languages) {
    const primary = language.toLowerCase().split('-')[0];
    if (primary === 'zh') return 'zh-CN';
    if (primary === 'en') return 'en';
  }
  return 'en';
}

/** Whether a string names a supported locale exactly. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (supportedLocales as readonly string[]).includes(value);
}

/** The locale to start with: the saved choice, else the browser's languages. */
export function initialLocale(): Locale {
  try {
    const saved = localStorage.getItem(localeStorageKey);
    if (isLocale(saved)) return saved;
  } catch {
    // Storage may be disabled (private mode, policy): the browser's languages still decide.
  }
  return pickLocale(navigator.languages?.length ? navigator.languages : [navigator.language]);
}

/** Keeps the user's choice for the next visit (in this browser). */
export function saveLocale(locale: Locale): void {
  try {
    localStorage.setItem(localeStorageKey, locale);
  } catch {
    // Not kept when storage is disabled: the switch still works for this page's life.
  }
}
