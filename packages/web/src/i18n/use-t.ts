import { useIntl } from 'react-intl';
import type { MessageId } from './messages/index.js';

/** Values an ICU message takes (numbers for plurals, strings, dates). */
export type MessageValues = Record<string, string | number | Date | boolean | null | undefined>;

/** A typed translate function: only ids of the English catalogue compile. */
export type Translate = (id: MessageId, values?: MessageValues) => string;

/**
 * `t(id, values)`: the message of the current locale with its ICU arguments filled in (plurals,
 * selects, numbers and dates formatted for the locale).
 */
export function useT(): Translate {
  const intl = useIntl();
  return (id, values) => intl.formatMessage({ id }, values as Record<string, string | number | Date | boolean>);
}

/**
 * A moment as the user's locale writes it (medium date, short time: "Dec 6, 2026, 1:05 AM",
 * "2026年12月6日 01:05"), from an ISO string or a Date.
 */
export function useFormatDateTime(): (moment: string | number | Date) => string {
  const intl = useIntl();
  return (moment) => intl.formatDate(new Date(moment), { dateStyle: 'medium', timeStyle: 'short' });
}
