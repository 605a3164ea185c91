import type { demoEn } from '../en/demo.js';

/** Simplified Chinese messages: the offline demo's suggested questions and "Crash the worker" (the English part's ids). */
export const demoZhCN: Record<keyof typeof demoEn, string> = {
  'demo.suggested.ask': '提问：{question}',
  'demo.crash.title': '让工作进程崩溃',
  'demo.crash.explain':
    '仅限演示空间与实例管理员：强制终止（SIGKILL）正在执行此运行的工作进程。租约到期后，新的工作进程接管同一个运行；已保存的步骤不会重做。',
  'demo.crash.owner': '运行 {runId} 由 {owner} 持有（纪元 {epoch}，租约{live, select, true {有效} other {已到期}}）。',
  'demo.crash.noOwner': '运行 {runId} 目前没有持有者。',
  'demo.crash.button': '让工作进程崩溃',
  'demo.crash.failed': '无法让工作进程崩溃',
  'demo.crash.killed': '已终止工作进程 {workerId}（进程 {pid}）。新的工作进程已启动。',
  'demo.crash.waiting': '正在等待被终止进程的租约到期，随后新的工作进程将接管该运行……',
  'demo.crash.takeover': '已接管：同一个运行 {runId} 现由 {owner} 持有（纪元 {epoch}）。',
};
