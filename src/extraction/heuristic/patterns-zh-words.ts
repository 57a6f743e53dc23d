import { REL_ZH } from './candidate.js';

/**
 * The words the Chinese pattern tables share (patterns-zh*.ts): how a row is anchored, what is a
 * name, a relative, a pet, a count, a day of the year.
 */

/** Sentence-final particles and marks that add nothing ("我搬到上海了啊！"). */
export const END = '[了啊呀哦呢的吧啦嘛哈~～!！]*$';
export const NAME = '([\\p{Script=Han}·]{1,6}?|[A-Za-z][A-Za-z .\'-]{0,30})';
export const REL = REL_ZH;
export const PET = '(猫咪|小猫|猫|狗狗|小狗|狗|兔子|仓鼠|鹦鹉|金鱼|鱼|乌龟|龟|鸟|金毛|柯基|泰迪|哈士奇|布偶猫|英短|橘猫)';
export const COUNT = '(一|两|二|三|四|五|几|\\d+)';
export const NUM = '(?:\\d{1,2}|[一二三四五六七八九十]{1,3})';
export const BIRTH_DATE = `((?:\\d{4}年)?${NUM}月${NUM}[日号]?)`;
/** Not a thing liked or disliked: a person, a pointer, or a condition's tail ("不喝就没精神": 就 goes on with what follows). */
export const NOT_OBJECTS = /^(?:你|他|她|它|这|那|这样|那样|什么|谁|就|才|的话)/;

export const re = (source: string): RegExp => new RegExp(`^${source}${END}`, 'u');
