import { useQueries } from '@tanstack/react-query';
import { api, queryKeys, type Schema, unwrap } from '../api/index.js';

/** A lifecycle trigger point a hook resource can be called at (K-4), as the platform accepts them. */
export type HookTrigger = Schema<'HookContent'>['trigger'];

/**
 * Every trigger point in the order a run meets them, and whether it concerns tool calls (its
 * description is `hookTrigger.<trigger>` in the message catalogues). Typed as a record of the
 * platform's `HookContent.trigger`, so a trigger the platform adds or drops breaks the build here
 * instead of going missing from the console.
 */
const triggerDetails: Record<HookTrigger, { toolCalls: boolean }> = {
  SessionStart: { toolCalls: false },
  UserPromptSubmit: { toolCalls: false },
  PreToolUse: { toolCalls: true },
  PostToolUse: { toolCalls: true },
  PostToolUseFailure: { toolCalls: true },
  SubagentStart: { toolCalls: false },
  SubagentStop: { toolCalls: false },
  PreCompact: { toolCalls: false },
  Stop: { toolCalls: false },
  SessionEnd: { toolCalls: false },
};

/** The trigger points, in run order, each saying whether it concerns tool calls. */
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
