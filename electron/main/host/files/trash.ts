import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { isFileAccessError, type EntryType, type TrashEntry } from '../../../common/file-access';
import { writeFileDurably } from './atomic';
import type { Confiner } from './confine';
import { entryType, lstatOrNull } from './entries';
import { fileError, fromOsError, isErrno } from './errors';
import { assertRemovable, moveEntry, treeSize } from './transfer';

/**
 * Baram's own recycle bin, outside the workspace (tools cannot reach it):
 *   <trashDir>/<trashId>/meta.json   what it was, where it was, when
 *   <trashDir>/<trashId>/item        the file or folder itself, under a fixed name
 * The metadata is written (durably) before the item moves in, so a crash in between leaves an
 * entry without an item — which trashList skips — never an item nobody can place.
 */

// 20240517-093012-a1b2: sortable, readable by a person, short enough for a small model to repeat.
const TRASH_ID = /^\d{8}-\d{6}-[0-9a-f]{4}$/;
const META = 'meta.json';
const ITEM = 'item';
const ENTRY_TYPES: readonly EntryType[] = ['file', 'directory', 'symlink', 'other'];

export class Trash {
  constructor(
    private readonly confiner: Confiner,
    readonly dir: string,
    /** Display form of a path, for errors about original locations (no host paths to the model). */
    private readonly display: (p: string) => string,
  ) {}

  async put(given: string): Promise<TrashEntry> {
    const api = this.confiner.rules.api;
    const src = await this.confiner.entry(given);
    const st = await lstatOrNull(src.path, given);
    if (st === null) throw fileError('NOT_FOUND', given);
    assertRemovable(this.confiner, src.path, given);
    let size = st.size;
    if (st.isDirectory()) {
      try {
        size = await treeSize(src.path, api);
      } catch (e) {
        throw fromOsError(e, given);
      }
    }
    const { trashId, slot } = await this.newSlot(given);
    const entry: TrashEntry = {
      trashId,
      originalPath: src.path,
      deletedAt: new Date().toISOString(),
      type: entryType(st),
      size,
    };
    try {
      await writeFileDurably(api.join(slot, META), `${JSON.stringify({ version: 1, ...entry }, null, 2)}\n`, api);
      await moveEntry(this.confiner, src.path, st, api.join(slot, ITEM), false, 'verbatim', { from: given, to: given });
    } catch (e) {
      await rm(slot, { recursive: true, force: true }).catch(() => undefined);
      throw fromOsError(e, given);
    }
    return entry;
  }

  /** Back to the original path, or to `to` (checked like any destination inside the roots). */
  async restore(trashId: string, to?: string): Promise<TrashEntry> {
    const api = this.confiner.rules.api;
    const entry = await this.read(trashId);
    if (entry === null) throw fileError('NOT_FOUND', trashId, 'no such item in the trash');
    const slot = api.join(this.dir, trashId);
    const item = api.join(slot, ITEM);
    const itemStat = await lstatOrNull(item, trashId);
    if (itemStat === null) throw fileError('NOT_FOUND', trashId, 'no such item in the trash');
    // The workspace may have changed since (roots, protected paths): the way back is checked anew.
    const destination = to ?? entry.originalPath;
    const shown = this.display(destination);
    let dst;
    try {
      dst = await this.confiner.entry(destination);
    } catch (e) {
      throw relabel(e, shown);
    }
    // Like the Recycle Bin: a folder that was deleted too is recreated, inside the roots only.
    const parent = api.dirname(dst.path);
    try {
      await mkdir(parent, { recursive: true });
    } catch (e) {
      throw fromOsError(e, shown);
    }
    let parentNow;
    try {
      parentNow = await this.confiner.target(parent);
    } catch (e) {
      throw relabel(e, shown);
    }
    if (parentNow.path !== parent) throw fileError('CHANGED', shown, 'folder changed while restoring');
    // Never overwrite: whatever is there now was made after the delete and is someone's work.
    if ((await lstatOrNull(dst.path, shown)) !== null) throw fileError('EXISTS', shown);
    await moveEntry(this.confiner, item, itemStat, dst.path, false, 'verbatim', { from: shown, to: shown });
    await rm(slot, { recursive: true, force: true }).catch(() => undefined);
    return entry;
  }

  /** Newest first. */
  async list(): Promise<TrashEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (e) {
      if (isErrno(e, 'ENOENT')) return [];
      throw fromOsError(e, 'trash');
    }
    const entries: TrashEntry[] = [];
    for (const name of names) {
      const entry = await this.read(name);
      if (entry === null) continue;
      const item = await lstatOrNull(this.confiner.rules.api.join(this.dir, name, ITEM), name);
      if (item !== null) entries.push(entry);
    }
    return entries.sort((a, b) => (a.deletedAt === b.deletedAt ? cmp(b.trashId, a.trashId) : cmp(b.deletedAt, a.deletedAt)));
  }

  private async newSlot(given: string): Promise<{ trashId: string; slot: string }> {
    const api = this.confiner.rules.api;
    for (let attempt = 0; ; attempt++) {
      const trashId = newTrashId(new Date());
      const slot = api.join(this.dir, trashId);
      try {
        await mkdir(slot, { mode: 0o700 });
        return { trashId, slot };
      } catch (e) {
        if (!isErrno(e, 'EEXIST') || attempt >= 16) throw fromOsError(e, given);
      }
    }
  }

  /** Reads and validates one entry's metadata; null for unknown ids and anything malformed. */
  private async read(trashId: string): Promise<TrashEntry | null> {
    // The id comes from a model: only our own format, so it can never name a path.
    if (typeof trashId !== 'string' || !TRASH_ID.test(trashId)) return null;
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(this.confiner.rules.api.join(this.dir, trashId, META), 'utf8'));
    } catch {
      return null;
    }
    if (typeof raw !== 'object' || raw === null) return null;
    const m = raw as Record<string, unknown>;
    if (m['trashId'] !== trashId) return null;
    const { originalPath, deletedAt, type, size } = m;
    if (typeof originalPath !== 'string' || !this.confiner.rules.api.isAbsolute(originalPath)) return null;
    if (typeof deletedAt !== 'string' || Number.isNaN(Date.parse(deletedAt))) return null;
    if (typeof type !== 'string' || !ENTRY_TYPES.includes(type as EntryType)) return null;
    if (typeof size !== 'number' || !Number.isFinite(size) || size < 0) return null;
    return { trashId, originalPath, deletedAt, type: type as EntryType, size };
  }
}

export function newTrashId(now: Date): string {
  const iso = now.toISOString(); // 2024-05-17T09:30:12.345Z
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

export function isTrashId(value: string): boolean {
  return TRASH_ID.test(value);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Errors about an original location name it as the user knows it, not by its host path. */
function relabel(e: unknown, shown: string): unknown {
  return isFileAccessError(e) ? fileError(e.code, shown) : fromOsError(e, shown);
}
