export { JsonlAuditSink, type AuditIdentity } from './jsonl-sink';
