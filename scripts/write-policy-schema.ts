/**
 * Writes resources/policy.schema.json from the TypeBox schema in electron/main/policy/schema.ts
 * (`npm run policy:schema`). The published file is generated, never edited: a unit test fails when
 * it differs from what this script would write.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { policyJsonSchemaText } from '../electron/main/policy/schema';

const target = fileURLToPath(new URL('../resources/policy.schema.json', import.meta.url));
writeFileSync(target, policyJsonSchemaText());
process.stdout.write(`wrote ${target}\n`);
