import { A2ACardError } from './a2a-errors.js';
import { A2A_PROTOCOL_VERSION, type A2AAuth, requestHeaders } from './a2a-json-rpc.js';
import type { A2AAgentCard, A2AAgentInterface } from './a2a-types.js';

/**
 * Reads an agent card from its URL (`https://host/.well-known/agent-card.json`, A2A §8.2) with the
 * caller's credentials. A card that is not JSON, or a transport failure, is an `A2ACardError`
 * (retryable for a transport failure or HTTP 5xx).
 */
export async function fetchAgentCard(
  cardUrl: string,
  auth: A2AAuth | undefined,
  fetchImpl: typeof fetch,
  signal: AbortSignal,
): Promise<A2AAgentCard> {
  let response: Response;
  try {
    const headers = await requestHeaders(auth, 'application/json');
    delete headers['content-type'];
    response = await fetchImpl(cardUrl, { headers, signal });
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    throw new A2ACardError(cardUrl, (error as Error).message, { cause: error, retryable: true });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new A2ACardError(cardUrl, `HTTP ${response.status}`, { retryable: response.status >= 500 });
  }
  try {
    return (await response.json()) as A2AAgentCard;
  } catch (error) {
    throw new A2ACardError(cardUrl, 'the card is not JSON', { cause: error });
  }
}

/**
 * The interface this client uses: the first (preferred) `supportedInterfaces` entry with the
 * JSON-RPC binding and protocol version 1.0. A card offering none is refused, not guessed at
 * (no silent fallback to 0.3, A2A §3.6.3).
 */
export function selectInterface(card: A2AAgentCard, cardUrl?: string): A2AAgentInterface {
  const interfaces = Array.isArray(card?.supportedInterfaces) ? card.supportedInterfaces : [];
  const chosen = interfaces.find(
    (candidate) =>
      candidate?.protocolBinding === 'JSONRPC' &&
      typeof candidate.url === 'string' &&
      String(candidate.protocolVersion).split('.').slice(0, 2).join('.') === A2A_PROTOCOL_VERSION,
  );
  if (!chosen) {
    const offered = interfaces.map((candidate) => `${candidate?.protocolBinding} ${candidate?.protocolVersion}`).join(', ');
    throw new A2ACardError(
      cardUrl,
      `no JSON-RPC interface with protocol version ${A2A_PROTOCOL_VERSION} (offered: ${offered || 'none'})`,
    );
  }
  return chosen;
}
