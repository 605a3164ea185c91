import type { Locale } from '../locale.js';
import { en } from './en.js';
import { zhCN } from './zh-cn.js';

/** Every message id: the keys of the English catalogue, which the others must match (type-checked). */
export type MessageId = keyof typeof en;

/** A catalogue: a message (ICU MessageFormat) for every id. */
export type Catalogue = Record<MessageId, string>;

/** The catalogue of each locale. */
export const catalogues: Record<Locale, Catalogue> = { en, 'zh-CN': zhCN };

/** Whether a string is a message id (for ids built at run time, e.g. from an API error code). */
export function isMessageId(id: string): id is MessageId {
  return Object.hasOwn(en, id);
}
