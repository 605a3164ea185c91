import { BubblewrapSandbox, type BubblewrapSandboxOptions, type Sandbox, SandboxUnavailableError } from '@agentloom/sdk';

/**
 * The name of the platform's input check that refuses a run whose agent runs the model's scripts
 * (code orchestration, ADR 0032) on a host where bubblewrap does not work: the SDK records the run
 * `failed` (`blocked`) with this name as its failure code, before any model call.
 */
export const sandboxUnavailableHookName = 'sandbox-unavailable';

/**
 * Stands in for bubblewrap where it does not work: every launch throws the reason. It lets the
 * publish dry run on an API host without bubblewrap build the agent (nothing runs there), and is
 * never used to run anything: a run on such a host is refused at its input first.
 */
class UnavailableSandbox implements Sandbox {
  readonly kind = 'unavailable';
  readonly isolating = true;
  constructor(private readonly reason: string) {}
  runCommand(): never {
    throw new SandboxUnavailableError(this.reason);
  }
  launch(): never {
    throw new SandboxUnavailableError(this.reason);
  }
}

/**
 * The sandbox of an agent that runs commands or the model's scripts (NOT-18, ADR 0032): bubblewrap,
 * or — when it does not work on this host — a stand-in that refuses to run anything, with the
 * reason. Never a sandbox that does not isolate: the platform never sets the SDK's `allowUnisolated`.
 * `options` configure bubblewrap (default: `bwrap` on the `PATH`).
 */
export function isolatingSandbox(options: BubblewrapSandboxOptions = {}): { sandbox: Sandbox; unavailable?: string } {
  try {
    return { sandbox: new BubblewrapSandbox(options) };
  } catch (error) {
    if (!SandboxUnavailableError.isInstance(error)) throw error;
    const reason = `this worker cannot isolate the agent's scripts and commands (bubblewrap: ${error.message})`;
    return { sandbox: new UnavailableSandbox(reason), unavailable: reason };
  }
}
