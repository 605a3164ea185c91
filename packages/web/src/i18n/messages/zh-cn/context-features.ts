import type { contextFeaturesEn } from '../en/context-features.js';

/** Simplified Chinese messages: the harness switches of the agent editor and the model requests of the run view (the English part's ids, no more, no fewer). */
export const contextFeaturesZhCN: Record<keyof typeof contextFeaturesEn, string> = {
  // 模型回退链
  'fallback.legend': '备用模型',
  'fallback.hint':
    '当模型以其他模型可能不会遇到的方式最终失败时（过载、重试后仍是服务器错误、上下文过长），按顺序改用备用模型。切换会被记录，恢复的运行会留在已切换到的模型上。',
  'fallback.connection': '备用模型 {number}：连接',
  'fallback.model': '备用模型 {number}：模型',
  'fallback.remove': '移除备用模型 {number}',
  'fallback.add': '添加备用模型',
  // 上下文功能
  'contextFeatures.legend': '模型在上下文末尾看到的内容',
  'contextFeatures.instructions': '你的指令',
  'contextFeatures.instructionsHint': '每次请求都附加在对话之后，因此其前面的缓存部分保持不变。',
  'contextFeatures.shaping': '消息整形',
  'contextFeatures.shaping.none': '不整形（按原样）',
  'contextFeatures.shaping.merge': '合并同角色消息',
  'contextFeatures.shaping.strict': '严格：只有一个系统提示',
  'contextFeatures.shapingHint':
    '合并：把相邻的同角色消息合为一条。严格：还把条目、指令和备注并入系统提示（只有一条系统消息、轮流发言）；条目变化时缓存前缀也会变化。',
  'contextFeatures.entryBudget': '条目的令牌预算',
  'contextFeatures.noBudget': '不限',
  // 上下文条目
  'entries.legend': '上下文条目',
  'entries.hint': '适用时添加的文本：始终添加（常驻），或当关键词或正则表达式出现在最近的消息中时添加。',
  'entries.region': '条目 {id}',
  'entries.id': '条目 {number}：名称',
  'entries.content': '条目 {number}：文本',
  'entries.constant': '始终添加（常驻）',
  'entries.keywords': '条目 {number}：关键词，用逗号分隔',
  'entries.pattern': '条目 {number}：正则表达式',
  'entries.scan': '条目 {number}：搜索的消息数',
  'entries.remove': '移除条目 {number}',
  'entries.add': '添加条目',
  // 用户命令
  'commands.legend': '用户命令',
  'commands.hint': "以 /名称 开头的运行输入会替换为保存的提示（'{{args}}' 取其余文本）。模型永远不会触发命令。",
  'commands.region': '命令 /{name}',
  'commands.name': '命令 {number}：名称',
  'commands.description': '命令 {number}：说明',
  'commands.prompt': '命令 {number}：提示',
  'commands.remove': '移除命令 {number}',
  'commands.add': '添加命令',
  // 记忆
  'memory.legend': '记忆',
  'memory.enabled': '跨会话记住事实',
  'memory.hint': '为智能体提供 remember、recall 和 forget；事实按智能体和发起运行的用户分别保存。',
  'memory.budget': '一次 recall 加入上下文的最多字符数',
  // 运行视图：模型请求
  'requests.heading': '模型请求',
  'requests.caption': '每次模型请求各部分的估计令牌数，以及系统前缀（系统提示和工具）的哈希。',
  'requests.none': '还没有完成的模型请求。',
  'requests.request': '角色，轮次',
  'requests.model': '模型',
  'requests.system': '系统',
  'requests.tools': '工具',
  'requests.history': '历史',
  'requests.entries': '条目',
  'requests.instructions': '指令',
  'requests.note': '备注',
  'requests.prefix': '前缀哈希',
  'requests.prefixChanged': '已变化：缓存未命中',
  'requests.notRecorded': '未记录',
};
