export { I18nProvider, useLocale } from './i18n-provider.js';
export { initialLocale, type Locale, pickLocale, supportedLocales } from './locale.js';
export { LocaleSwitcher } from './locale-switcher.js';
export { type Catalogue, isMessageId, loadCatalogue, type MessageId } from './messages/index.js';
export { problemMessage } from './problem-message.js';
export { useRoleName } from './role-name.js';
export { type MessageValues, type Translate, useFormatDateTime, useT } from './use-t.js';
