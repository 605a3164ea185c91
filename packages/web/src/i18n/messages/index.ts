import type { Locale } from '../locale.js';
import type { en } from './en.js';

/** Every message id: the keys of the English catalogue, which the others must match (type-checked). */
export type MessageId = keyof typeof en;

/** A catalogue: a message (ICU MessageFormat) for every id. */
export type Catalogue = Record<MessageId, string>;

/**
 * The catalogue of one locale, loaded on demand: each is its own chunk, so a page downloads only
 * the language it shows (the two together were a third of every page's JavaScript). `main.tsx`
 * starts the load at once, alongside the page's chunk and the user's data.
 */
export function loadCatalogue(locale: Locale): Promise<Catalogue> {
  return locale === 'zh-CN' ? import('./zh-cn.js').then((module) => module.zhCN) : import('./en.js').then((module) => module.en);
}

/** The catalogue shown now (every catalogue has the same ids, so any loaded one answers `isMessageId`). */
let activeCatalogue: Readonly<Record<string, string>> | undefined;

/** Called by the provider whenever the catalogue it shows changes. */
export function setActiveCatalogue(catalogue: Catalogue): void {
  activeCatalogue = catalogue;
}

/** Whether a string is a message id (for ids built at run time, e.g. from an API error code). */
export function isMessageId(id: string): id is MessageId {
  return activeCatalogue !== undefined && Object.hasOwn(activeCatalogue, id);
}
