export { SqliteLedger } from './ledger/sqlite-ledger';
export { verifyLedger, type LedgerVerdict, type LedgerDamage } from './ledger/verify';
export { type LedgerIdentity, type StoredEventBody } from './ledger/canonical-event';
export { LEDGER_DOMAIN } from './ledger/chain';
export { LATEST_SCHEMA_VERSION } from './ledger/migrations';
