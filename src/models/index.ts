export { createModel, type CreateModelOptions, type GenerateOptions, type GenerateResult, type LanguageModelPort, type ModelClient, type ModelUsage } from './language-model.js';
export { createOpenAICompatibleModel, resolveModelFromEnv, type OpenAICompatibleModelOptions } from './openai-compatible.js';
export { createUsageMeter, type PromptUsage, type UsageMeter, type UsageRecord, type UsageSnapshot } from './usage.js';
export type { BackoffOptions, Sleep } from './retry.js';
export { extractJsonText, jsonInstructions, outputJsonSchema, parseModelOutput } from './structured-output.js';
