import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { ModelMessage } from '../model';

/**
 * Conversations, in their own SQLite file in the data folder (never the ledger: the ledger is
 * append-only evidence; a conversation is the user's working state, listed and resumed). Each
 * message is stored as it is appended, so a Stop, a crash or Ctrl-C loses at most the turn that
 * was being generated.
 */

export type ConversationStatus = 'running' | 'answered' | 'failed' | 'cancelled' | 'step_limit';

export interface ConversationMeta {
  readonly id: string;
  readonly title: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly status: ConversationStatus;
  readonly workspace: string;
  readonly model: string;
  readonly lang: string;
  /** Tools already sent with full schemas, in order (the routing state, so a resumed prompt keeps its prefix). */
  readonly offered: readonly string[];
  readonly messages: number;
}

export interface Conversation {
  readonly meta: ConversationMeta;
  readonly messages: ModelMessage[];
}

export interface NewConversation {
  readonly title: string;
  readonly workspace: string;
  readonly model: string;
  readonly lang: string;
}

export function conversationsFile(dataDir: string): string {
  return join(dataDir, 'conversations.sqlite');
}

const TITLE_CHARS = 80;

interface MetaRow {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  status: ConversationStatus;
  workspace: string;
  model: string;
  lang: string;
  offered: string;
  messages: number;
}

export class ConversationStore {
  readonly #db: Database.Database;

  private constructor(db: Database.Database) {
    this.#db = db;
  }

  static open(file: string): ConversationStore {
    mkdirSync(dirname(file), { recursive: true });
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    // NORMAL, not the ledger's FULL: a conversation is working state, not evidence; WAL+NORMAL never
    // corrupts, it may lose the last message on power loss, and saves an fsync per message.
    db.pragma('synchronous = NORMAL');
    db.exec(`
      CREATE TABLE IF NOT EXISTS conversations (
        id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
        status TEXT NOT NULL, workspace TEXT NOT NULL, model TEXT NOT NULL, lang TEXT NOT NULL,
        offered TEXT NOT NULL DEFAULT '[]');
      CREATE TABLE IF NOT EXISTS messages (
        conversation_id TEXT NOT NULL REFERENCES conversations(id), seq INTEGER NOT NULL,
        body TEXT NOT NULL, PRIMARY KEY (conversation_id, seq));
    `);
    return new ConversationStore(db);
  }

  create(init: NewConversation): string {
    const id = randomUUID();
    const now = new Date().toISOString();
    const title = init.title.replace(/\s+/g, ' ').trim().slice(0, TITLE_CHARS);
    this.#db
      .prepare('INSERT INTO conversations (id, title, created_at, updated_at, status, workspace, model, lang) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, title, now, now, 'running', init.workspace, init.model, init.lang);
    return id;
  }

  append(id: string, message: ModelMessage): void {
    const insert = this.#db.transaction(() => {
      const next = (this.#db.prepare('SELECT COALESCE(MAX(seq), -1) + 1 AS n FROM messages WHERE conversation_id = ?').get(id) as { n: number }).n;
      this.#db.prepare('INSERT INTO messages (conversation_id, seq, body) VALUES (?, ?, ?)').run(id, next, JSON.stringify(message));
      this.#touch(id);
    });
    insert();
  }

  setStatus(id: string, status: ConversationStatus): void {
    this.#db.prepare('UPDATE conversations SET status = ? WHERE id = ?').run(status, id);
    this.#touch(id);
  }

  setOffered(id: string, offered: readonly string[]): void {
    this.#db.prepare('UPDATE conversations SET offered = ? WHERE id = ?').run(JSON.stringify(offered), id);
  }

  /** The conversation, or null when no conversation has that id (or a unique prefix of one). */
  load(idOrPrefix: string): Conversation | null {
    const meta = this.#find(idOrPrefix);
    if (!meta) return null;
    const rows = this.#db.prepare('SELECT body FROM messages WHERE conversation_id = ? ORDER BY seq').all(meta.id) as { body: string }[];
    return { meta, messages: rows.map((r) => JSON.parse(r.body) as ModelMessage) };
  }

  /** Newest first. */
  list(limit = 50): ConversationMeta[] {
    const rows = this.#db.prepare(`${META_SELECT} ORDER BY c.updated_at DESC, c.rowid DESC LIMIT ?`).all(limit) as MetaRow[];
    return rows.map(toMeta);
  }

  close(): void {
    this.#db.close();
  }

  #find(idOrPrefix: string): ConversationMeta | null {
    const exact = this.#db.prepare(`${META_SELECT} WHERE c.id = ?`).get(idOrPrefix) as MetaRow | undefined;
    if (exact) return toMeta(exact);
    if (!/^[0-9a-f-]{4,}$/i.test(idOrPrefix)) return null;
    const matches = this.#db.prepare(`${META_SELECT} WHERE c.id LIKE ? LIMIT 2`).all(`${idOrPrefix.toLowerCase()}%`) as MetaRow[];
    return matches.length === 1 ? toMeta(matches[0]!) : null;
  }

  #touch(id: string): void {
    this.#db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?').run(new Date().toISOString(), id);
  }
}

const META_SELECT = `SELECT c.id, c.title, c.created_at, c.updated_at, c.status, c.workspace, c.model, c.lang, c.offered,
  (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) AS messages FROM conversations c`;

function toMeta(r: MetaRow): ConversationMeta {
  return {
    id: r.id,
    title: r.title,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    status: r.status,
    workspace: r.workspace,
    model: r.model,
    lang: r.lang,
    offered: JSON.parse(r.offered) as string[],
    messages: r.messages,
  };
}
