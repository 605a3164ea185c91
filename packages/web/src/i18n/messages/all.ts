import type { Locale } from '../locale.js';
import { en } from './en.js';
import type { Catalogue } from './index.js';
import { zhCN } from './zh-cn.js';

/**
 * Every locale's catalogue at once, for the tests and scripts that compare them. The console never
 * imports this module: it loads only the catalogue it shows (`loadCatalogue`).
 */
export const catalogues: Record<Locale, Catalogue> = { en, 'zh-CN': zhCN };
