/** Self-verifying example: a chat routed by the intent layer's commands to SDK agents (see conversation.ts). */
import { runConversation } from './conversation.js';

runConversation()
  .then(() => console.log('intent-router example: all checks passed'))
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
