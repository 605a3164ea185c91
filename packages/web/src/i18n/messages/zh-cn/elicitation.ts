import type { elicitationEn } from '../en/elicitation.js';

/** MCP 征询（ADR 0038）：工具向用户提出的问题，在对话页和运行视图中以表单显示。 */
export const elicitationZhCN: Record<keyof typeof elicitationEn, string> = {
  'elicitation.region': '工具的提问',
  'elicitation.needed': '来自 {server} 的提问',
  'elicitation.during': '在调用 {tool} 时提出',
  'elicitation.required': '（必填）',
  'elicitation.choose': '请选择…',
  'elicitation.yes': '是',
  'elicitation.decline': '拒绝',
  'elicitation.openUrl': '打开服务器请你访问的页面',
  'elicitation.acceptUrl': '已完成',
  'elicitation.waiting': '等待用户回答。',
  'elicitation.answered': '{action, select, accept {已回答} decline {已拒绝} other {已取消}}，操作人 {who}',
  'elicitation.ended': '调用在回答之前已结束：该问题已关闭。',
  'elicitation.loading': '正在加载表单…',
};
