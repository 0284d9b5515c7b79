export { Gate, type CallRequest, type CallResult, type GateOptions } from './gate';
export { toolCatalog, permissionSubjectOf, builtinTools, type ToolInfo } from './catalog';
export { toolsetDigest } from './toolset';
export { callProbe } from './call-probe';
