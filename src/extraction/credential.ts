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
