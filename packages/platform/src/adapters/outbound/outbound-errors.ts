/**
 * The rules of the egress policy (P-15.1), each the reason a destination was refused:
 * - `scheme`: not `http:` or `https:` (`file:`, `gopher:` …);
 * - `loopback`, `link-local`, `private` (RFC 1918, `fc00::/7`), `carrier-grade-nat`, `unspecified`,
 *   `multicast`: the address classes refused by default;
 * - `cloud-metadata`: a cloud metadata service (`169.254.169.254`, `fd00:ec2::254` …), refused
 *   even when private addresses are allowed;
 * - `special-purpose`: any other address that is not global unicast (broadcast, documentation,
 *   6to4, NAT64 …);
 * - `platform-address`: the platform's own listen address and port.
 */
export type EgressRule =
  | 'scheme'
  | 'loopback'
  | 'link-local'
  | 'private'
  | 'carrier-grade-nat'
  | 'unspecified'
  | 'multicast'
  | 'cloud-metadata'
  | 'special-purpose'
  | 'platform-address';

const explanations: Record<EgressRule, string> = {
  scheme: 'only http and https URLs are allowed',
  loopback: 'loopback addresses are refused',
  'link-local': 'link-local addresses are refused',
  private: 'private network addresses are refused',
  'carrier-grade-nat': 'carrier-grade NAT addresses are refused',
  unspecified: 'the unspecified address is refused',
  multicast: 'multicast and broadcast addresses are refused',
  'cloud-metadata': 'cloud metadata services are refused',
  'special-purpose': 'special-purpose addresses are refused',
  'platform-address': "the platform's own address is refused",
};

/**
 * A request the egress policy refused (P-15.1): typed (`code`), with the rule that refused it and
 * the destination as the caller named it (never the address a name resolved to). It states
 * `retryable: false` so that the SDK records it as a final failure instead of retrying it as a
 * broken connection: asking again cannot change the policy's answer.
 */
export class EgressDeniedError extends Error {
  readonly code = 'egress-denied';
  readonly retryable = false;

  constructor(
    readonly rule: EgressRule,
    readonly destination: string,
  ) {
    super(
      `egress-denied: the outbound request to ${destination} was refused by the egress policy (rule ${rule}: ${explanations[rule]}; an operator can allow a destination with AGENTLOOM_OUTBOUND_ALLOW).`,
    );
    this.name = 'EgressDeniedError';
  }
}

/** The bounds every outbound call has; a response beyond them is cut with this error. */
export type OutboundLimitCode = 'response-too-large' | 'too-many-redirects' | 'redirect-refused';

/** An outbound call went beyond a bound of the outbound module (size, redirects); final, like a refusal. */
export class OutboundLimitError extends Error {
  readonly retryable = false;

  constructor(
    readonly code: OutboundLimitCode,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundLimitError';
  }
}

/** The outbound module's own error (a refusal or a bound) along an error's `cause` chain (clients wrap what `fetch` threw). */
export function findOutboundError(error: unknown): EgressDeniedError | OutboundLimitError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    if (current instanceof EgressDeniedError || current instanceof OutboundLimitError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The egress refusal along an error's `cause` chain, if any. */
export function findEgressDenial(error: unknown): EgressDeniedError | undefined {
  const found = findOutboundError(error);
  return found instanceof EgressDeniedError ? found : undefined;
}

/** The first string `code` along an error's `cause` chain (`fetch failed` wraps `ECONNREFUSED`). */
export function errorCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
