import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { translator } from '../i18n/i18n';
import { describeError } from './error-text';

const zh = translator('zh');
const en = translator('en');
const invalid = (message: string, details?: Record<string, unknown>) => new ApiError(400, 'INVALID_INPUT', message, 'req-1', details);

describe('describeError: the page says an error in its own language, the server’s words kept', () => {
  it('a time typed in the todo form and not read: quoted in a sentence of the page (zh, en), the English words behind it', () => {
    const error = invalid('No time or repeat found in "随便什么时候吧"');
    const zhText = describeError(zh, 'zh', error, { said: { when: '随便什么时候吧' } });
    expect(zhText).toEqual({ text: '没能把时间改成“随便什么时候吧”。可以写“下午四点”“周一上午十点”或“每个工作日早上九点”。', serverMessage: 'No time or repeat found in "随便什么时候吧"', inline: false });
    expect(zhText.text).not.toMatch(/[A-Za-z]/);
    expect(describeError(en, 'en', invalid('No time or repeat found in "whenever"'), { said: { when: 'whenever' } }).text).toBe('Could not move it to “whenever”. Try “4pm”, “Monday at 10am” or “every weekday at 9am”.');
    // Two fields typed and no field named by the server: no guess, the plain sentence.
    expect(describeError(zh, 'zh', error, { said: { when: '随便', remind: '提前半小时' } }).text).toBe('服务器不接受这个输入。');
  });

  it('with the server’s details (field, reason) each way a reminder fails has its own sentence (zh, en)', () => {
    const said = { when: '下午四点', remind: '一周后' };
    const reasons = ['no-time', 'after-due', 'no-due-time'].map((reason) => describeError(zh, 'zh', invalid('…', { field: 'remind', reason, text: '一周后' }), { said }).text);
    expect(reasons).toEqual(['没有从“一周后”中读出提醒时间。可以写“提前半小时”“前一天晚上”或“周一早上九点”。', '提醒“一周后”会在待办时间之后；提醒要在它之前。', '这个待办还没有时间，无从提前提醒（“一周后”）：请先给它一个时间。']);
    expect(describeError(en, 'en', invalid('…', { field: 'when', reason: 'no-time' }), { said: { when: 'whenever', remind: 'soon' } }).text).toBe('No time found in “whenever”. Try “4pm”, “Monday at 10am” or “every weekday at 9am”.');
    // A reason this page does not know: the sentence true of every reason.
    expect(describeError(en, 'en', invalid('…', { field: 'remind', reason: 'new-one' }), { said: { remind: 'soon' } }).text).toMatch(/^Could not set the reminder to “soon”/);
  });

  it('a code the form gives a meaning: the import into a user who has data (zh, en)', () => {
    const error = new ApiError(409, 'CONFLICT', 'User 导入用户 already has memories, messages and todos here; import into an empty user or forget the user first');
    const byCode = { CONFLICT: 'errImportNotEmpty' } as const;
    expect(describeError(zh, 'zh', error, { byCode })).toMatchObject({ text: expect.stringContaining('只能导入到空用户'), serverMessage: error.message, inline: false });
    expect(describeError(en, 'en', error, { byCode }).text).toContain('imported only into an empty user');
    expect(describeError(zh, 'zh', error).text).toBe('与已经存储的数据冲突。');
  });

  it('other errors: the English page puts the server’s words after a lead-in; the Chinese page keeps them out of its sentence', () => {
    const tooLong = invalid('Invalid json: content: Too big: expected string to have <=8000 characters');
    expect(describeError(en, 'en', tooLong)).toEqual({ text: 'The server did not accept this:', serverMessage: tooLong.message, inline: true });
    expect(describeError(zh, 'zh', tooLong)).toEqual({ text: '服务器不接受这个输入。', serverMessage: tooLong.message, inline: false });
    const internal = new ApiError(500, 'INTERNAL', 'Internal error');
    expect(describeError(en, 'en', internal)).toMatchObject({ text: 'The server said', inline: true });
    expect(describeError(zh, 'zh', internal)).toMatchObject({ text: '服务器出错了。', serverMessage: 'Internal error', inline: false });
    const missing = new ApiError(404, 'NOT_FOUND', 'Memory m1 not found');
    expect(describeError(en, 'en', missing)).toMatchObject({ text: expect.stringMatching(/^Not found/), serverMessage: 'Memory m1 not found', inline: false });
    expect(describeError(zh, 'zh', new ApiError(0, 'NETWORK', 'Failed to fetch')).text).toMatch(/^连不上服务器/);
  });
});
