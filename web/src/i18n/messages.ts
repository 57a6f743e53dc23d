export { en, type MessageKey } from './en';
export { zh } from './zh';

/** Kinds, statuses, history actions and actors in each interface language. */
export const KIND_NAMES: Record<'en' | 'zh', Record<string, string>> = {
  en: { identity: 'identity', preference: 'preference', fact: 'fact', person: 'person', event: 'event', plan: 'plan', todo: 'todo', pattern: 'pattern', skill: 'skill', episode: 'episode', system: 'system', active: 'active', archived: 'archived', deleted: 'deleted',
    create: 'created', update: 'updated', delete: 'deleted', restore: 'restored', purge: 'purged', reinforce: 'reinforced', access: 'recalled', archive: 'archived', reindex: 'reindexed', decay: 'decayed', promote: 'promoted', review: 'reviewed',
    user: 'user', extraction: 'extraction', lifecycle: 'lifecycle', file: 'file edit', import: 'import' },
  zh: { identity: '身份', preference: '偏好', fact: '事实', person: '人物', event: '事件', plan: '计划', todo: '待办', pattern: '习惯', skill: '技能', episode: '会话', system: '系统', active: '有效', archived: '已归档', deleted: '已删除',
    create: '创建', update: '修改', delete: '删除', restore: '恢复', purge: '清除', reinforce: '强化', access: '召回', archive: '归档', reindex: '重建索引', decay: '衰减', promote: '晋升', review: '复审',
    user: '用户', extraction: '提取', lifecycle: '生命周期', file: '文件编辑', import: '导入' },
};
