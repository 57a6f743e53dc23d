/**
 * A credential with its value in a memory's text: "用户的银行卡密码是123456", "The user's wifi
 * password is hunter2", "PIN: 4821". Extraction keeps none, from a model or from the heuristic
 * extractor: the memory block goes into prompts sent to the model provider, and the memory page
 * shows memories to whoever holds the tenant's key. Naming one without its value ("the user
 * changed their password") is no credential.
 */
const CREDENTIAL_ZH = /(?:密码|口令|验证码|支付码|卡号|身份证号码?|社保号|护照号码?)\s*(?:是|为|：|:|=)\s*\S/u;
const CREDENTIAL_EN = /\b(?:password|passcode|passphrase|pin(?: code)?|credit card(?: number)?|card number|social security number|ssn|api key|secret key|private key|access token)\s*(?:is|was|:|=)\s*\S/iu;

export function holdsCredential(text: string): boolean {
  return CREDENTIAL_ZH.test(text) || CREDENTIAL_EN.test(text);
}

const VALUE = String.raw`[^\s，。；;,]+`;
const SAID_ZH = new RegExp(String.raw`((?:密码|口令|验证码|支付码|卡号|身份证号码?|社保号|护照号码?)\s*(?:是|为|：|:|=)\s*)${VALUE}`, 'gu');
const SAID_EN = new RegExp(String.raw`(\b(?:password|passcode|passphrase|pin(?: code)?|credit card(?: number)?|card number|social security number|ssn|api key|secret key|private key|access token)\s*(?:is|was|:|=)\s*)${VALUE}`, 'giu');

/**
 * The text with each credential's value hidden ("我的wifi密码是［已隐去］", "my wifi password is
 * [hidden]"): what is quoted from a conversation into a prompt (an excerpt, a session's summary)
 * goes to the model provider, as a memory would.
 */
export function withoutCredentials(text: string): string {
  if (!holdsCredential(text)) return text;
  return text.replace(SAID_ZH, '$1［已隐去］').replace(SAID_EN, '$1[hidden]');
}
