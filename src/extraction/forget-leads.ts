/**
 * How a request to the assistant may begin, before its verb: "ok, also, can you please …", "I'd
 * like you to …", "对了，麻烦你…", "以后…". Shared by the readers of a request to forget (a topic:
 * forget-request.ts and forget-request-en.ts; a time: forget-when.ts).
 */
export const LEAD = String.raw`(?:(?:ok(?:ay)?|also|and|so|hey|oh|well|actually|btw|one more thing|wait|hmm+|never mind|nvm)[,.!\s]+)*(?:(?:can|could|would|will) you\s+|i(?:\s+(?:want|need|would like)|'d like|\s+d like) you to\s+)?(?:please\s+|pls\s+|plz\s+|just\s+)*`;
export const ZH_LEAD = String.raw`(?:(?:好吧|对了|另外|还有|那个|嗯|哦|算了)[，,、\s]*)?(?:请你?|麻烦你?|你?(?:能不能|可不可以|可以|能)|你|帮我|以后|从今以后|从现在起|从现在开始|从今天起|现在)*[，,\s]*`;
