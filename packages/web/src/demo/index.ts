export { CrashWorkerCard } from './crash-worker-card.js';
export { SuggestedQuestion, suggestedQuestionOf } from './suggested-question.js';
