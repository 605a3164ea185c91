/** The agent editor's Files tab: the agent's wiki and business files (issue 36). */
export { FilesTab } from './files-tab.js';
