import { isMessageId, type Translate } from '../i18n/index.js';

/**
 * The terminal reasons in words (P-8.11): each SDK reason keeps its own sentence in the
 * catalogues (`ending.reason.<reason>`), so a user stop, a timeout, an exhausted loop budget, a
 * model failure, a compression failure and an over-window end never read alike, in any language.
 * Who asked for a stop is `ending.cause.<stopCause>` (the platform's `stopCause`).
 */
export function endingInWords(
  t: Translate,
  status: string,
  reason?: string | null,
  stopCause?: string | null,
): string | undefined {
  if (status === 'succeeded') return t('ending.succeeded');
  if (status !== 'failed' && status !== 'stopped') return undefined;
  if (reason === 'user-stop' && stopCause) {
    const causeId = `ending.cause.${stopCause}`;
    return t('ending.stoppedBy', { cause: isMessageId(causeId) ? t(causeId) : stopCause });
  }
  const reasonId = `ending.reason.${reason}`;
  if (reason && isMessageId(reasonId)) return t(reasonId);
  if (status === 'stopped') return t('ending.stopped');
  return reason ? t('ending.failedWith', { reason }) : t('ending.failed');
}

/** A short label for a status badge (`pending` reads "queued"); an unknown status shows as named. */
export function statusLabel(t: Translate, status: string): string {
  const id = `status.${status}`;
  return isMessageId(id) ? t(id) : status;
}
