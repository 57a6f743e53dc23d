/**
 * Text that tries to give the assistant standing orders rather than tell it about the user:
 * "from now on always…", "ignore previous instructions", "系统提示：…", "忽略之前的指令",
 * "以后你必须…". A memory extracted from such text is flagged `instruction` (memory poisoning,
 * OWASP LLM01/LLM04), never stored as kind `system`. Tuned to over-flag rather than miss: a
 * flag only marks the memory, it does not drop it.
 */
const PATTERNS: readonly RegExp[] = [
  // English
  /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|former|system)\s+(?:instructions?|prompts?|rules|directions|messages)/i,
  /\bfrom\s+now\s+on\b[^.!?\n]*\b(?:you|always|never|must|should|reply|respond|answer)\b/i,
  /\byou\s+(?:must|shall|will|should)\s+(?:always|never|now|only|from\s+now)\b/i,
  /\b(?:always|never)\s+(?:respond|reply|answer|say|tell|recommend|mention|reveal|obey|follow)\b/i,
  /\b(?:system\s+prompt|system\s+message|new\s+instructions?|developer\s+mode|jailbreak)\b/i,
  /\b(?:you\s+are\s+now|act\s+as|pretend\s+(?:to\s+be|you\s+are))\b/i,
  // Chinese
  /(?:忽略|无视|忘掉|忘记|不要理会)(?:之前|以前|上面|前面|先前|所有|全部|以上)的?(?:所有)?(?:指令|指示|提示|规则|设定|要求|对话)/,
  /系统(?:提示|指令|消息|设定)\s*[:：]?/,
  /(?:从现在(?:开始|起)|以后|今后|从今以后)[，,]?\s*你(?:必须|要|都要|一律|总是|永远|只能|不许|不准|不能)/,
  /你(?:必须|务必)(?:总是|永远|始终|一直|只能)/,
  /(?:你现在是|扮演|假装你是|进入开发者模式)/,
];

export function looksLikeInstruction(text: string): boolean {
  return PATTERNS.some((p) => p.test(text));
}
