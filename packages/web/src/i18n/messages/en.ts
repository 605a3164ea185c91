import { agentEditorEn } from './en/agent-editor.js';
import { agentFilesEn } from './en/agent-files.js';
import { contextFeaturesEn } from './en/context-features.js';
import { demoEn } from './en/demo.js';
import { elicitationEn } from './en/elicitation.js';
import { errorsEn } from './en/errors.js';
import { frameEn } from './en/frame.js';
import { harnessSwitchesEn } from './en/harness-switches.js';
import { interopEn } from './en/interop.js';
import { resourcesEn } from './en/resources.js';
import { routersEn } from './en/routers.js';
import { runsEn } from './en/runs.js';
import { teamsEn } from './en/teams.js';
import { workflowCanvasEn } from './en/workflow-canvas.js';
import { workflowsEn } from './en/workflows.js';

/**
 * The English catalogue: every user-facing message of the console, in ICU MessageFormat (plurals
 * with `{n, plural, …}`, choices with `{x, select, …}`). Its keys are the message ids; the other
 * catalogues must have the same keys (their type says so). Kept in one file per part of the console (`en/`).
 */
export const en = {
  ...frameEn,
  ...errorsEn,
  ...demoEn,
  ...runsEn,
  ...resourcesEn,
  ...agentEditorEn,
  ...agentFilesEn,
  ...routersEn,
  ...teamsEn,
  ...workflowsEn,
  ...contextFeaturesEn,
  ...workflowCanvasEn,
  ...interopEn,
  ...elicitationEn,
  ...harnessSwitchesEn,
} as const;
