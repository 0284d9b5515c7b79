/** The policy module's public API (SPEC G-PERM, §8). */
export { builtinPolicy, BUILTIN_DENY_ARGS, DEFAULT_DECISIONS } from './defaults';
export { evaluatePermission } from './evaluate';
export { loadPolicyFile, parsePolicyText, type PolicyLoadOptions } from './load';
export { mergePolicies } from './merge';
export { runPolicyTests, type CallProbe, type PolicyTestReport, type ProbeOutcome, type SubjectOf } from './policy-tests';
export { decodePolicyBytes, readPolicyText, type FileKind } from './file-text';
export { compilePathVeto, type PathVeto } from './path-veto';
export { isExecutionEquivalent, TRANSFER_TREE_LIMIT, TRANSFER_TREE_TOO_LARGE, transferDescendants } from './protections';
export { commandMatcher, hasShellMetacharacter, urlMatcher, type ValueMatcher } from './patterns';
export { parseRule, ruleToolMatches, type ParsedRule } from './rule-syntax';
export { PolicyFileSchema, UserSettingsSchema, policyJsonSchemaText } from './schema';
export { parseUserSettings } from './user-settings';
export { ambiguousUrlMessage, urlAmbiguity, type UrlAmbiguity, type UrlAmbiguityKind } from './url-shape';
export type * from './types';
export { policyWarnings, type ToolShape } from './warnings';
export { unsafeTrustedDirProblems } from './trusted-dirs';
export { DEFAULT_MODEL_POLICY } from './defaults';
export { LOOPBACK, modelSourceAllowed, type ModelSource, type ModelSourceVerdict } from './model-sources';
