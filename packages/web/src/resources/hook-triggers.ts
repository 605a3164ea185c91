import { useQueries } from '@tanstack/react-query';
import { api, queryKeys, type Schema, unwrap } from '../api/index.js';

/** A lifecycle trigger point a hook resource can be called at (K-4), as the platform accepts them. */
export type HookTrigger = Schema<'HookContent'>['trigger'];

/**
 * Every trigger point in the order a run meets them, with what the hook is sent. Typed as a
 * record of the platform's `HookContent.trigger`, so a trigger the platform adds or drops breaks
 * the build here instead of going missing from the console.
 */
const triggerDetails: Record<HookTrigger, { when: string; toolCalls: boolean }> = {
  SessionStart: { when: 'when a run starts (also when a session is resumed)', toolCalls: false },
  UserPromptSubmit: { when: 'when a question or a supplement comes in; may rewrite or refuse it', toolCalls: false },
  PreToolUse: { when: 'before a tool call; may allow, deny, ask a person, or change the arguments', toolCalls: true },
  PostToolUse: { when: 'after a tool call succeeded; may block or replace the result', toolCalls: true },
  PostToolUseFailure: { when: 'after a tool call failed', toolCalls: true },
  SubagentStart: { when: 'before an executor task starts (Plan–Executor); may change the task', toolCalls: false },
  SubagentStop: { when: 'after an executor task ended; may replace its output', toolCalls: false },
  PreCompact: { when: 'before the conversation is compressed', toolCalls: false },
  Stop: { when: 'when the agent is about to answer; may block the ending', toolCalls: false },
  SessionEnd: { when: 'when a run has ended', toolCalls: false },
};

/** The trigger points, in run order, with their descriptions. */
export const hookTriggers = (Object.keys(triggerDetails) as HookTrigger[]).map((trigger) => ({
  trigger,
  ...triggerDetails[trigger],
}));

/** Whether a value is one of the trigger points. */
export function isHookTrigger(value: string): value is HookTrigger {
  return Object.hasOwn(triggerDetails, value);
}

/**
 * The content of the newest version of each hook resource (trigger, URL, matcher…): the resource
 * list does not carry content, so each hook's newest version is read (cached per version).
 */
export function useHookContents(spaceId: string, hooks: readonly Schema<'Resource'>[]) {
  const versions = useQueries({
    queries: hooks.map((hook) => ({
      queryKey: queryKeys.resourceVersion(spaceId, hook.id, hook.latestVersion),
      enabled: hook.latestVersion > 0,
      queryFn: () =>
        unwrap(
          api.GET('/spaces/{spaceId}/resources/{resourceId}/versions/{version}', {
            params: { path: { spaceId, resourceId: hook.id, version: hook.latestVersion } },
          }),
        ),
    })),
  });
  const contents = new Map<string, Schema<'HookContent'>>();
  hooks.forEach((hook, index) => {
    const content = versions[index]?.data?.version.content as Schema<'HookContent'> | undefined;
    if (content) contents.set(hook.id, content);
  });
  return { contents, error: versions.find((version) => version.error)?.error };
}
