import type { en } from './en.js';
import { agentEditorZhCN } from './zh-cn/agent-editor.js';
import { agentFilesZhCN } from './zh-cn/agent-files.js';
import { contextFeaturesZhCN } from './zh-cn/context-features.js';
import { demoZhCN } from './zh-cn/demo.js';
import { elicitationZhCN } from './zh-cn/elicitation.js';
import { errorsZhCN } from './zh-cn/errors.js';
import { frameZhCN } from './zh-cn/frame.js';
import { harnessSwitchesZhCN } from './zh-cn/harness-switches.js';
import { interopZhCN } from './zh-cn/interop.js';
import { resourcesZhCN } from './zh-cn/resources.js';
import { routersZhCN } from './zh-cn/routers.js';
import { runsZhCN } from './zh-cn/runs.js';
import { teamsZhCN } from './zh-cn/teams.js';
import { workflowCanvasZhCN } from './zh-cn/workflow-canvas.js';
import { workflowsZhCN } from './zh-cn/workflows.js';

/**
 * The Simplified Chinese catalogue (zh-CN): the same ids as the English one (a missing or extra
 * id does not compile), in ICU MessageFormat. Product terms stay as the platform names them
 * (ReAct, Plan–Executor, MCP, HTTP, API).
 */
export const zhCN: Record<keyof typeof en, string> = {
  ...frameZhCN,
  ...errorsZhCN,
  ...demoZhCN,
  ...runsZhCN,
  ...resourcesZhCN,
  ...agentEditorZhCN,
  ...agentFilesZhCN,
  ...routersZhCN,
  ...teamsZhCN,
  ...workflowsZhCN,
  ...contextFeaturesZhCN,
  ...workflowCanvasZhCN,
  ...interopZhCN,
  ...elicitationZhCN,
  ...harnessSwitchesZhCN,
};
