export { replyText, TurnDetails } from './turn-details.js';
