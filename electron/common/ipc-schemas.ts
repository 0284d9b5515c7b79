import { Type, type TSchema } from '@sinclair/typebox';

/**
 * The request half of the IPC contract as TypeBox schemas, one per channel (ipc-contract.ts
 * derives the request types from them; ipc-validate.ts checks requests against them in main).
 * Strict: no extra keys, bounded strings, enums spelled out.
 */
const strict = { additionalProperties: false } as const;
const Id = Type.String({ minLength: 1, maxLength: 200 });
/** A model server URL or an absolute GGUF file path, as the person types it. */
const ModelTarget = Type.String({ minLength: 1, maxLength: 2_000 });
/** A filter word of the audit viewer (the query engine's MAX_FILTER_CHARS). */
const AuditWord = Type.String({ minLength: 1, maxLength: 200 });
/** An ISO 8601 instant with an explicit offset; the query engine checks it is a real date. */
const AuditInstant = Type.String({ minLength: 16, maxLength: 40, pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$' });

export const requestSchemas = {
  'app:info': Type.Object({}, strict),
  /** What the session reported since it opened (an MCP server that stopped …), oldest first. */
  'notices:list': Type.Object({}, strict),
  'tools:list': Type.Object({}, strict),
  /** Settings (issue 17 scope 5): language, the model and what the admin allows, read back. */
  'settings:get': Type.Object({}, strict),
  /** The UI language; switches at once and is saved for the next start. */
  'settings:set-lang': Type.Object({ lang: Type.Union([Type.Literal('ko'), Type.Literal('en')]) }, strict),
  /** The model in use and whether it answers now (the chat screen's status). */
  'model:status': Type.Object({}, strict),
  /** A connection check of a server URL or a GGUF file (only one the admin allows is contacted). */
  'model:check': Type.Object({ target: ModelTarget }, strict),
  /** Use this model from now on (saved); refused while a request runs or when the admin does not allow it. */
  'model:use': Type.Object({ target: ModelTarget }, strict),
  /** The effective policy, read-only, with what the administrator locked. */
  'policy:view': Type.Object({}, strict),
  /** The "allow for this session" grants in force. */
  'grants:list': Type.Object({}, strict),
  /** Withdraw one grant: the next such call asks again. */
  'grants:revoke': Type.Object({ id: Id }, strict),
  /** A typed request from the user: starts an agent run. */
  'chat:send': Type.Object({ text: Type.String({ minLength: 1, maxLength: 20_000 }), conversationId: Type.Optional(Id) }, strict),
  /** Stop: ends generation and every running tool of the run. */
  'chat:stop': Type.Object({ runId: Id }, strict),
  /** Saved conversations, newest first. */
  'conversations:list': Type.Object({}, strict),
  /** One conversation's messages, to show and continue it. */
  'conversations:load': Type.Object({ id: Id }, strict),
  /** Approvals still open (a page that loads or reloads shows them again). */
  'approval:pending': Type.Object({}, strict),
  /** The person's answer to an `approval:request` event. */
  'approval:answer': Type.Object(
    {
      callId: Id,
      digest: Type.String({ minLength: 1, maxLength: 200 }),
      choice: Type.Union([Type.Literal('allow-once'), Type.Literal('allow-session'), Type.Literal('deny')]),
      reason: Type.Optional(Type.String({ maxLength: 2_000 })),
    },
    strict,
  ),
  /**
   * One page of the audit viewer, newest first (keyset paging: `beforeSeq` is the previous page's
   * nextBeforeSeq). Times are ISO instants with an offset; main checks the rest (range order, …)
   * with the query engine's own checkPageRequest and answers a problem in ko/en.
   */
  'audit:page': Type.Object(
    {
      filter: Type.Object(
        {
          fromTime: Type.Optional(AuditInstant),
          toTime: Type.Optional(AuditInstant),
          user: Type.Optional(AuditWord),
          tool: Type.Optional(AuditWord),
          outcome: Type.Optional(
            Type.Union([
              Type.Literal('ok'),
              Type.Literal('error'),
              Type.Literal('denied'),
              Type.Literal('invalid'),
              Type.Literal('refused'),
              Type.Literal('timeout'),
              Type.Literal('cancelled'),
            ]),
          ),
          decision: Type.Optional(Type.Union([Type.Literal('allow'), Type.Literal('ask'), Type.Literal('deny')])),
          eventType: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          text: Type.Optional(AuditWord),
        },
        strict,
      ),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
      beforeSeq: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
    },
    strict,
  ),
  /** Verify the whole ledger (chain, checkpoints, the viewer's indexes), as `baram audit verify` does. */
  'audit:verify': Type.Object({}, strict),
  /** Export through main's save dialog: the page names a format and a time range, never a path. */
  'audit:export': Type.Object(
    {
      format: Type.Union([Type.Literal('csv'), Type.Literal('jsonl'), Type.Literal('syslog'), Type.Literal('cef')]),
      fromTime: Type.Optional(AuditInstant),
      toTime: Type.Optional(AuditInstant),
      /** Language of a CSV's headers and words (the page's language). */
      lang: Type.Optional(Type.Union([Type.Literal('ko'), Type.Literal('en')])),
    },
    strict,
  ),
  /** The latest checkpoint as text and QR code; `take: true` takes a new one first (`baram audit checkpoint`). */
  'audit:checkpoint': Type.Object({ take: Type.Boolean() }, strict),
} as const satisfies Readonly<Record<string, TSchema>>;

