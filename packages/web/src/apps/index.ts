export { type AppColumn, AppListPage, type AppSummary } from './app-list.js';
