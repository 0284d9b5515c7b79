export { AuditLedger, sealKeyPath, type LedgerOptions } from './ledger/audit-ledger';
export { verifyLedger } from './ledger/verify';
export { readLedgerRows, type SegmentRow } from './ledger/read-rows';
export { type LedgerVerdict, type LedgerDamage, type LedgerReport, type VerifyOptions } from './ledger/verify-rows';
export { type LedgerIdentity, type StoredEventBody } from './ledger/canonical-event';
export { parseVerificationKey, formatVerificationKey } from './ledger/seal-key';
export { LEDGER_DOMAIN } from './ledger/chain';
export { LATEST_SCHEMA_VERSION } from './ledger/migrations';
export { redactSecretsInText, redactSecretsDeep } from './redact';
