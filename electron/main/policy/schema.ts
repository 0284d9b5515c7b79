import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Decision, SchemaMode } from '../../common/domain';
import { McpSectionSchema } from './mcp-section';

/**
 * The policy file's JSON Schema (SPEC §8), one TypeBox object: the published schema
 * (resources/policy.schema.json, written by scripts/write-policy-schema.ts) and the static type of a
 * parsed file come from the same source, so they cannot drift. Everything is optional except
 * `version`; load.ts fills the defaults. `additionalProperties: false` everywhere, so a misspelt
 * field is an error instead of a silently ignored setting.
 */

/** `{type: string, enum}` rather than TypeBox's anyOf-of-consts: ajv then reports one clear enum error. */
function stringEnum<T extends string>(values: readonly T[], description: string) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], description });
}

/** A map with free keys. `additionalProperties: <schema>` instead of patternProperties (X-SCHEMA refuses those). */
function mapOf<T extends TSchema>(value: T, description: string) {
  return Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: value, description });
}

const closed = { additionalProperties: false } as const;

const DECISIONS: readonly Decision[] = ['allow', 'ask', 'deny'];
const SCHEMA_MODES: readonly SchemaMode[] = ['off', 'warn', 'enforce'];

const decision = (risk: string) => Type.Optional(stringEnum(DECISIONS, `Decision for ${risk} tools when no rule matches.`));

/** Spelled out (not built from RISKS) so the static type names each risk. */
const defaultsSchema = () =>
  Type.Object(
    {
      read: decision('read'),
      write: decision('write'),
      destructive: decision('destructive'),
      execute: decision('execute'),
      network: decision('network'),
    },
    closed,
  );
const schemaMode = (which: string) => stringEnum(SCHEMA_MODES, `Schema validation mode for ${which} tools.`);

const ruleList = (what: string) =>
  Type.Array(Type.String({ minLength: 1 }), {
    description: `${what} rules: "tool" or "tool(pattern)"; tool may end in * for a family ("filesystem.*").`,
  });

const nonEmptyStrings = (description: string) => Type.Array(Type.String({ minLength: 1 }), { description });

const ShellCommandSchema = Type.Object(
  {
    denyArgs: Type.Optional(
      nonEmptyStrings('Arguments this program may not receive, on top of its grammar (exact, or "--flag" also refusing "--flag=value").'),
    ),
  },
  closed,
);

const ShellSchema = Type.Object(
  {
    commands: Type.Optional(mapOf(ShellCommandSchema, 'Whitelisted programs by bare name ("git", never a path). git, hostname, ping, find and tar are confined by built-in grammars (read-only subcommands and options, path arguments inside the workspace); any other program runs with the user’s full authority.')),
    trustedDirs: Type.Optional(nonEmptyStrings('Folders programs are resolved from (absolute or ~/…); never the working directory.')),
    env: Type.Optional(
      Type.Array(
        Type.String({
          pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
          description: 'an environment variable name such as PATH or LANG (letters, digits, underscore)',
        }),
        { description: 'Environment variables passed to programs; nothing else leaks.' },
      ),
    ),
    // 1 s to 600 s: SPEC S-SHELL clamps every call into this range, so a policy outside it could not be honoured.
    defaultTimeoutMs: Type.Optional(Type.Integer({ minimum: 1000, maximum: 600000, description: 'Timeout when a call names none (ms).' })),
    maxTimeoutMs: Type.Optional(Type.Integer({ minimum: 1000, maximum: 600000, description: 'Longest timeout a call may ask for (ms).' })),
    maxOutputChars: Type.Optional(
      Type.Integer({ minimum: 1000, maximum: 1000000, description: 'Characters of output the model sees at most.' }),
    ),
    // The capture cap bounds main-process memory per running command; 256 MiB is already generous for two cores.
    maxCaptureBytes: Type.Optional(
      Type.Integer({ minimum: 65536, maximum: 268435456, description: 'Bytes of output kept in memory per command.' }),
    ),
  },
  closed,
);

const SshHostSchema = Type.Object(
  {
    address: Type.Optional(Type.String({ minLength: 1, description: 'Host name or IP address; defaults to the entry name.' })),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'TCP port; defaults to 22.' })),
    // user and hostKey are required: a host without a pinned key cannot be connected to safely.
    user: Type.String({ minLength: 1, description: 'Login name on the host.' }),
    hostKey: Type.String({
      pattern: '^SHA256:[A-Za-z0-9+/]{43}=?$',
      description:
        'a pinned host key fingerprint such as SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8 (run ssh-keyscan HOST | ssh-keygen -lf -)',
    }),
    commands: Type.Optional(
      nonEmptyStrings('Command lines allowed on this host: an exact line, or a prefix ending in ":*" ("df:*"). Shell metacharacters are always refused.'),
    ),
    identityFile: Type.Optional(
      Type.String({ minLength: 1, description: 'Private key file Baram logs in with (no passphrase, readable by this user only); "~" is the home folder.' }),
    ),
  },
  closed,
);

const ModelSchema = (who: string) =>
  Type.Object(
    {
      endpoints: Type.Optional(
        nonEmptyStrings(`Model servers ${who}: URL prefixes such as "http://127.0.0.1:8080/" (scheme, host, port, path prefix), or "loopback" for any port on this computer.`),
      ),
      files: Type.Optional(nonEmptyStrings(`GGUF model files ${who}: absolute files, or folders covering the files below them ("~" is the home folder).`)),
    },
    { ...closed, description: 'Which model servers and GGUF files Baram may use. Without this section: loopback servers only, and no GGUF file.' },
  );

const PolicyTestSchema = Type.Object(
  {
    tool: Type.String({ minLength: 1, description: 'Tool name, e.g. "shell.execute".' }),
    args: Type.Optional(
      mapOf(Type.Unknown(), 'Tool arguments exactly as the model would send them.'),
    ),
    expect: stringEnum(
      [...DECISIONS, 'refuse'] as const,
      'What this call must meet: allow, ask or deny by the rules; refuse = refused before approval by the tool’s precheck (e.g. a command that is not whitelisted). deny is met by a refusal too.',
    ),
  },
  closed,
);

export const PolicyFileSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String({ description: 'Path or URL of this schema, for editors.' })),
    version: Type.Literal(1, { description: 'Policy format version; always 1.' }),
    workspaceRoots: Type.Optional(nonEmptyStrings('Folders file tools are confined to (absolute or ~/…).')),
    defaults: Type.Optional(defaultsSchema()),
    rules: Type.Optional(
      Type.Object({ allow: Type.Optional(ruleList('Allow')), ask: Type.Optional(ruleList('Ask')), deny: Type.Optional(ruleList('Deny')) }, closed),
    ),
    shell: Type.Optional(ShellSchema),
    http: Type.Optional(Type.Object({ allow: Type.Optional(nonEmptyStrings('Allowed URL prefixes ("http://intranet.example/wiki/").')) }, closed)),
    ssh: Type.Optional(Type.Object({ hosts: Type.Optional(mapOf(SshHostSchema, 'Hosts by the name the model uses.')) }, closed)),
    browser: Type.Optional(
      Type.Object(
        {
          executablePath: Type.Optional(
            Type.String({ minLength: 1, description: 'Absolute path of the Chrome or Edge program browser.open and browser.screenshot drive; absent: the installed one is found.' }),
          ),
        },
        closed,
      ),
    ),
    schemaValidation: Type.Optional(
      Type.Object({ builtin: Type.Optional(schemaMode('built-in')), external: Type.Optional(schemaMode('external (MCP)')) }, closed),
    ),
    // A short timeout only denies sooner (stricter), so any positive value is accepted; 300 s is the default.
    approval: Type.Optional(
      Type.Object({ timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600, description: 'Seconds before an unanswered approval is denied.' })) }, closed),
    ),
    // 365 days: 개인정보의 안전성 확보조치 기준 §8 requires access records to be kept at least one year.
    audit: Type.Optional(
      Type.Object({ retentionDays: Type.Optional(Type.Integer({ minimum: 365, description: 'Days audit records are kept.' })) }, closed),
    ),
    tests: Type.Optional(Type.Array(PolicyTestSchema, { description: 'Examples checked at load; a policy whose examples fail does not load.' })),
    model: Type.Optional(ModelSchema('Baram may use')),
    mcp: Type.Optional(McpSectionSchema),
  },
  { ...closed, title: 'Baram policy', description: 'Administrator policy for Baram (SPEC §8).' },
);

export type PolicyFile = Static<typeof PolicyFileSchema>;

/**
 * User settings may only tighten (DESIGN idiom 4), so their schema simply has no field that could
 * widen: no allow list, no shell/http/ssh sections.
 */
export const UserSettingsSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    workspaceRoots: Type.Optional(nonEmptyStrings('Folders inside the administrator’s workspace roots.')),
    defaults: Type.Optional(defaultsSchema()),
    rules: Type.Optional(
      Type.Object(
        {
          ask: Type.Optional(ruleList('Ask')),
          deny: Type.Optional(ruleList('Deny')),
          dropAllow: Type.Optional(
            Type.Array(Type.String({ minLength: 1 }), { description: "Administrator allow rules to drop, written exactly as in the administrator's policy." }),
          ),
        },
        closed,
      ),
    ),
    model: Type.Optional(ModelSchema('this user uses, within the administrator’s')),
  },
  closed,
);

export type UserSettingsFile = Static<typeof UserSettingsSchema>;

/** The published file: draft-07 (ajv's default dialect, and what editors understand best). */
export function policyJsonSchemaText(): string {
  const document = { $schema: 'http://json-schema.org/draft-07/schema#', $id: 'urn:baram:policy:1', ...PolicyFileSchema };
  return `${JSON.stringify(document, null, 2)}\n`;
}
