import type { frameEn } from '../en/frame.js';

/** Simplified Chinese messages: the frame, sign-in, spaces and lists of apps; statuses shared by every page (the English part's ids, no more, no fewer). */
export const frameZhCN: Record<keyof typeof frameEn, string> = {
  // 框架
  'shell.skipToContent': '跳到正文',
  'shell.space': '空间',
  'shell.allSpaces': '全部空间',
  'shell.spaceOption': '{name}（{role}）',
  'shell.signOut': '退出登录',
  'shell.loading': '正在加载…',
  'shell.language': '语言',
  'shell.documentTitle': '{title} · AgentLoom',
  'space.nav': '空间',
  'space.notMember': '你不是这个空间的成员，或者这个空间不存在。',
  'space.yourRole': '你的角色：{role}',
  'space.section.agents': '智能体',
  'space.section.workflows': '工作流',
  'space.section.connections': '模型连接',
  'space.section.prompts': '提示词',
  'space.section.skills': '技能',
  'space.section.httpTools': 'HTTP 工具',
  'space.section.mcpServers': 'MCP 服务器',
  'space.section.hooks': '钩子',
  'space.section.members': '成员',
  'space.section.apiKeys': 'API 密钥',
  'role.owner': '所有者',
  'role.admin': '管理员',
  'role.editor': '编辑者',
  'role.viewer': '查看者',
  'notFound.title': '页面不存在',
  'notFound.text': '这个地址下什么也没有。<link>返回我的空间</link>。',

  // 通用组件
  'common.name': '名称',
  'common.description': '描述',
  'common.published': '已发布',
  'common.yes': '是',
  'common.notYet': '尚未发布',
  'problem.defaultTitle': '服务器拒绝了这个操作。',

  // 登录
  'signIn.title': '登录 AgentLoom',
  'signIn.email': '邮箱',
  'signIn.password': '密码',
  'signIn.emailMissing': '请输入你账号的邮箱地址。',
  'signIn.passwordMissing': '请输入密码。',
  'signIn.failed': '登录失败。',
  'signIn.submit': '登录',
  'signIn.submitting': '正在登录…',
  'signIn.firstStart': '首次启动时，<code>agentloom serve</code> 会打印一次管理员密码。',

  // 空间
  'spaces.title': '空间',
  'spaces.yours': '我的空间',
  'spaces.none': '你还不是任何空间的成员。可以在下面创建一个。',
  'spaces.new': '新建空间',
  'spaces.name': '空间名称',
  'spaces.nameMissing': '请给空间起个名字。',
  'spaces.create': '创建空间',

  // 应用列表（智能体、工作流）
  'apps.title': '{kind, select, agent {智能体} router {路由器} other {工作流}}',
  'apps.caption': '本空间的{kind, select, agent {智能体} router {路由器} other {工作流}}',
  'apps.nameColumn': '{kind, select, agent {智能体} router {路由器} other {工作流}}',
  'apps.empty': '{kind, select, agent {还没有智能体。} router {还没有路由器。} other {还没有工作流。}}',
  'apps.new': '{kind, select, agent {新建智能体} router {新建路由器} other {新建工作流}}',
  'apps.create': '{kind, select, agent {创建智能体} router {创建路由器} other {创建工作流}}',
  'apps.nameMissing': '{kind, select, agent {请给智能体起个名字。} router {请给路由器起个名字。} other {请给工作流起个名字。}}',
  'apps.count': '{count, plural, =0 {没有应用} other {# 个应用}}',
  'agents.mode': '模式',
  'agents.mode.react': 'ReAct',
  'agents.mode.planExecutor': 'Plan–Executor',
  'agents.modeLegend': '执行模式（创建后不可更改）',
  'agents.mode.reactHint': '——一个智能体循环思考并调用工具。',
  'agents.mode.planExecutorHint': '——由规划者把任务分派给各个执行者角色。',
  'agents.chat': '对话',
  'agents.chatWith': '与 {name} 对话',

  // 运行状态与结束方式
  'status.pending': '排队中',
  'status.running': '运行中',
  'status.succeeded': '成功',
  'status.failed': '失败',
  'status.stopped': '已停止',
  'status.stopping': '正在停止',
  'status.waiting-input': '等待输入',

  // 运行记录、运行详情、会话
  'status.retrying': '重试中',
  'status.working': '处理中',

  // 发布版本、草稿、钩子列表
  'common.version': 'v{version}',

  // 运行详情的明细
  'phase.ready': '就绪',
  'phase.calling-model': '正在调用模型',
  'phase.in-batch': '正在执行工具调用',
  'phase.answered': '已回答',
  'phase.finished': '已结束',
};
