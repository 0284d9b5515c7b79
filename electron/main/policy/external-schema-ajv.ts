import Ajv from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import { re2Engine } from './regexp-engine';

/** The JSON Schema dialects this ajv implements, and so the only ones an external schema may name. */
export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';

/**
 * A validator for schemas we did not write (SPEC X-SCHEMA). It is never given a `loadSchema`, so a
 * reference it cannot resolve in the document is a compile error, never a fetch. Patterns run on RE2
 * (linear time). admitExternalSchema drops the root `$id` from the copy it admits (every reference
 * left is a '#…' fragment, so the base URI changes nothing), so no tool's schema is registered in
 * the instance under a name another tool could collide with or reach. `format` is an annotation
 * (as 2019-09 and 2020-12 define it by default): this ajv has no format validators, and without
 * `validateFormats: false` every "email" or "uri" in a server's schema logs a warning at each
 * registration.
 */
export function externalAjv(dialect: SchemaDialect): Ajv {
  const options = { allErrors: true, verbose: true, strict: false, validateFormats: false, code: { regExp: re2Engine } } as const;
  if (dialect === '2019-09') return new Ajv2019(options);
  if (dialect === '2020-12') return new Ajv2020(options);
  return new Ajv(options);
}
