/** Who is calling: a signed-in user (cookie) or an API key of a space or of one app. */
export type Principal =
  | { kind: 'user'; userId: string; email: string; isInstanceAdmin: boolean; sessionId: string }
  | { kind: 'space-key'; keyId: string; spaceId: string; createdBy: string }
  | { kind: 'app-key'; keyId: string; spaceId: string; appId: string; createdBy: string };

/** The id recorded as the actor of a change (`created_by`, `published_by` …). */
export function actorOf(principal: Principal): string {
  return principal.kind === 'user' ? principal.userId : `key:${principal.keyId}`;
}
