/**
 * The ledger's writer (DESIGN idiom 7, issue 13): the one object that appends to the audit log.
 * Only electron/main/runtime (which opens a session or an audit command's ledger) and audit/ itself
 * may import this module — a dependency rule says so — so no tool, gate step, CLI command or window
 * handler can hold a writable ledger of its own. Everything read-only (verify, export, the viewer)
 * comes from ./index.
 */
export { AuditLedger, type LedgerOptions } from './ledger/audit-ledger';
