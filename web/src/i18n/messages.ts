export { en, type MessageKey } from './en';
export { zh } from './zh';

/** Values the server sends: kinds, statuses, history actions, actors, sources, message roles and relation types. */
export const KIND_NAMES: Record<'en' | 'zh', Record<string, string>> = {
  en: { identity: 'identity', preference: 'preference', fact: 'fact', person: 'person', event: 'event', plan: 'plan', todo: 'todo', pattern: 'pattern', skill: 'skill', episode: 'episode', system: 'system', active: 'active', archived: 'archived', deleted: 'deleted',
    create: 'created', update: 'updated', delete: 'deleted', restore: 'restored', purge: 'purged', reinforce: 'reinforced', access: 'recalled', archive: 'archived', reindex: 'reindexed', decay: 'decayed', promote: 'promoted', review: 'reviewed',
    user: 'user', extraction: 'extraction', lifecycle: 'lifecycle', file: 'file edit', import: 'import', manual: 'by hand',
    assistant: 'assistant', tool: 'tool',
    supports: 'supports', contradicts: 'contradicts', refines: 'refines', supersedes: 'supersedes', 'derived-from': 'derived from' },
  zh: { identity: '身份', preference: '偏好', fact: '事实', person: '人物', event: '事件', plan: '计划', todo: '待办', pattern: '习惯', skill: '技能', episode: '会话', system: '系统', active: '有效', archived: '已归档', deleted: '已删除',
    create: '创建', update: '修改', delete: '删除', restore: '恢复', purge: '清除', reinforce: '强化', access: '召回', archive: '归档', reindex: '重建索引', decay: '衰减', promote: '晋升', review: '复审',
    user: '用户', extraction: '提取', lifecycle: '生命周期', file: '文件编辑', import: '导入', manual: '手动添加',
    assistant: '助手', tool: '工具',
    supports: '支持', contradicts: '矛盾', refines: '细化', supersedes: '取代', 'derived-from': '派生自' },
};

/** Field names the server sends: a memory's fields in its history, and the profile's basics. */
export const FIELD_NAMES: Record<'en' | 'zh', Record<string, string>> = {
  en: { content: 'content', kind: 'kind', importance: 'importance', status: 'status', core: 'core', confidence: 'confidence', structuredData: 'structured data',
    happenedAt: 'happened at', expiresAt: 'expires at', tags: 'tags', language: 'language', source: 'source', verified: 'verified',
    name: 'name', occupation: 'occupation', location: 'location', employer: 'employer', birthday: 'birthday', family: 'family', age: 'age' },
  zh: { content: '内容', kind: '类型', importance: '重要性', status: '状态', core: '核心', confidence: '置信度', structuredData: '结构化数据',
    happenedAt: '发生时间', expiresAt: '过期时间', tags: '标签', language: '语言', source: '来源', verified: '已核实',
    name: '姓名', occupation: '职业', location: '所在地', employer: '雇主', birthday: '生日', family: '家庭', age: '年龄' },
};
