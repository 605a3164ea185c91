export {
  type Command,
  type CommandType,
  commandSchema,
  commandTypes,
  refKey,
  type SlotValue,
  sameRef,
  slotValueSchema,
} from './command.js';
export { applyCommands, type DialogueState, dialogueStateProblems, dialogueStateSchema } from './dialogue-state.js';
