/** The process runner's public API (SPEC S-SHELL); the tool layer sees only ProcessCapability. */
export { createProcessHost, ProcessHost, type ProcessHostOptions } from './process-host';
export { DEFAULT_MAX_RUNNING_TASKS } from './background-tasks';
export { MIN_TIMEOUT_MS, runLimits } from './run-request';
export { OUTPUT_CLOSE_BOUND_MS } from './supervise';
export { programPathConfinement } from './program-paths';
