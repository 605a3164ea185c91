import type { harnessSwitchesEn } from '../en/harness-switches.js';

/** Simplified Chinese messages: the code orchestration and background executor switches (the English part's ids, no more, no fewer). */
export const harnessSwitchesZhCN: Record<keyof typeof harnessSwitchesEn, string> = {
  'scripts.legend': '代码编排的工具调用',
  'scripts.enabled': '允许模型通过脚本调用工具',
  'scripts.hint':
    '模型可以编写一段简短的 JavaScript 脚本，循环调用本智能体的工具；只有脚本的结果进入上下文。每次调用都像直接调用一样经过检查、记入日志并按规则重试。脚本在 bubblewrap 沙箱中运行，因此只有能够隔离的 worker 才会执行本智能体的运行。平台默认：关闭。',
  'scripts.maxToolCalls': '每个脚本最多调用工具次数',
  'scripts.maxOutputBytes': '脚本最多返回的字节数',
  'scripts.oneMebibyte': '{bytes, number}（1 MiB）',
  'scripts.maxMemoryMegabytes': '脚本内存上限（MiB）',
  'error.sandbox-unavailable': '这个 worker 无法隔离智能体的脚本和命令：bubblewrap 在这里不可用。',
  'executors.background': '执行者 {number, number} 在后台运行',
  'executors.backgroundHint': '规划者立即继续；结果稍后作为输入到达，已完成的任务可按 id 恢复。受运行的预算与停止约束。',
};
