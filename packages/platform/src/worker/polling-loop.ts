import type { Logger } from 'pino';

/**
 * Runs `round` now and then again `intervalMs` after each round ends, until the answered function
 * is called. A round that throws is logged as `label` and the loop goes on: a deliverer must
 * outlive a database hiccup.
 */
export function startPollingLoop(logger: Logger, label: string, intervalMs: number, round: () => Promise<void>): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const next = async () => {
    try {
      await round();
    } catch (error) {
      logger.warn({ err: { message: (error as Error).message } }, label);
    }
    if (!stopped) timer = setTimeout(() => void next(), intervalMs);
  };
  timer = setTimeout(() => void next(), 0);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
