/** The model layer's public surface (issue 16, scope 1–2): one interface, four ways to reach a model. */
export * from './backend';
export { OpenAiBackend, openAiBaseUrl, normaliseFinish, type OpenAiBackendOptions } from './openai';
export { OllamaBackend, estimatePromptTokens, DEFAULT_NUM_CTX, type OllamaBackendOptions } from './ollama';
export { EmbeddedBackend, type EmbeddedBackendOptions } from './embedded';
export { checkGguf, type GgufCheck, type GgufInfo } from './gguf';
export { checkModel, PROBE_SCHEMA, type CheckOptions, type ModelCheck, type ServerKind } from './check';
export {
  ACTION_SCHEMA_NAME,
  actionPrompt,
  buildActionSchema,
  constrainedMessages,
  parseAction,
  responseFormat,
  toGrammarSchema,
  type Action,
  type GrammarSchemaOptions,
} from './action-schema';
export { parseTextCalls, TextCallFilter, type TextCalls } from './text-calls';
export { backendForCheck, collectTurn, createBackend, generateTurn, type CreateBackendOptions, type Turn } from './turn';
