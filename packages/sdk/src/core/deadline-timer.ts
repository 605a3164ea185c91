import { performance } from 'node:perf_hooks';

/** A deadline armed with `armDeadline`: `fire` is called once, at or after `at` (monotonic milliseconds). */
export interface ArmedDeadline {
  readonly at: number;
  readonly fire: () => void;
}

/** The deadlines armed now, behind one Node timer set for the earliest of them. */
const armed = new Set<ArmedDeadline>();
let timer: NodeJS.Timeout | undefined;
let timerAt = Number.POSITIVE_INFINITY;

/**
 * Calls `fire` once `ms` milliseconds have passed, unless `disarmDeadline` comes first. For the
 * guards of calls that nearly always end long before their bound (a model call's first-output and
 * stall timeouts: minutes, against milliseconds per call): every deadline shares one Node timer,
 * set for the earliest, so arming and disarming one is a set operation, not a timer inserted into
 * and removed from Node's lists (issue 31: a timer per model call was about 3 µs of a team turn).
 * The timer keeps the process alive while a deadline is armed, as a timer of its own would.
 */
export function armDeadline(ms: number, fire: () => void): ArmedDeadline {
  const deadline: ArmedDeadline = { at: performance.now() + Math.max(0, ms), fire };
  armed.add(deadline);
  if (deadline.at < timerAt) schedule(deadline.at);
  else if (armed.size === 1) timer?.ref();
  return deadline;
}

/** Disarms `deadline` (idempotent; nothing happens once it has fired). */
export function disarmDeadline(deadline: ArmedDeadline): void {
  if (!armed.delete(deadline)) return;
  // The shared timer stays set for a later deadline, but no longer holds the process open.
  if (armed.size === 0) timer?.unref();
}

/** Deadlines armed now (tests). */
export function armedDeadlines(): number {
  return armed.size;
}

function schedule(at: number): void {
  clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(expire, Math.max(0, Math.ceil(at - performance.now())));
}

/** Fires every deadline that has come, then sets the timer for the next one. */
function expire(): void {
  timer = undefined;
  timerAt = Number.POSITIVE_INFINITY;
  const now = performance.now();
  const due: ArmedDeadline[] = [];
  let next = Number.POSITIVE_INFINITY;
  for (const deadline of armed) {
    if (deadline.at <= now) due.push(deadline);
    else if (deadline.at < next) next = deadline.at;
  }
  for (const deadline of due) armed.delete(deadline);
  if (next !== Number.POSITIVE_INFINITY) schedule(next);
  // A fired deadline may arm another (a stall check re-arming itself): `armDeadline` handles it.
  // One that throws does not keep the others from firing; its error stays uncaught, as it would
  // be from a timer of its own.
  for (const deadline of due) {
    try {
      deadline.fire();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
