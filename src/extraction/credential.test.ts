import { describe, expect, it } from 'vitest';
import { holdsCredential } from './credential.js';

describe('holdsCredential', () => {
  it.each(['用户的银行卡密码是123456', '用户的wifi密码：hunter2', '用户的身份证号码是110101199003071234', "The user's wifi password is hunter2", 'PIN: 4821', "The user's credit card number is 4111 1111 1111 1111", 'api key = sk-123'])(
    'finds a credential with its value: %s',
    (text) => expect(holdsCredential(text)).toBe(true),
  );

  it.each(['用户上周改了密码', '用户忘记了邮箱密码', 'The user changed their password yesterday', 'The user keeps their passwords in a password manager', '用户的车牌号是沪A12345', "The user's pin-up collection is large"])(
    'is no credential without its value: %s',
    (text) => expect(holdsCredential(text)).toBe(false),
  );
});
