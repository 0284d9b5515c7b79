import { Type } from '@sinclair/typebox';
import type { Fingerprint } from '../../electron/common/file-access';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import { defineTool, failure, isFailure, type Failure, type Plan, type PlanContext } from '../kit/define-tool';
import { humanSize, quoted } from '../kit/format';
import { parentPath } from '../kit/paths';
import { fail } from '../kit/results';
import { asFailure, attempt, displayOf, emptyPathText, notRegularFile, refusal, refuseWildcardName, renderRun, runTargets, sameFingerprint } from '../kit/targets';
import { decodeText, type TextEncodingName } from '../kit/text-decoding';
import { encodeAs, encodingLabel, unencodable } from '../kit/text-file';
import { extensionOf } from '../kit/document-files';
import { unknownSheetText } from './book/book';
import type { CellRef, RowData } from './book/cells';
import { detectDelimiter, MAX_CSV_BYTES } from './book/csv';
import { badSheetName, changesOf, editsFromCells, editsFromRows, formulaLike, MAX_WRITE_CELLS, renderChanges, type CellChange, type CellEdit, type InputValue } from './book/edits';
import { extrasText, isBookProblem, problemText } from './book/problems';
import { headerLine, rowLine } from './book/table';
import { CsvGrid } from './book/write-csv';
import { applyEdits, filledCells, findWorksheet, loadWorkbook, MAX_UPDATE_BYTES, newWorkbook, valueReader, workbookBytes } from './book/write-xlsx';
import { openXlsx } from './book/xlsx';

const Value = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

const input = Type.Object(
  {
    path: Type.String({ description: 'File to write, .xlsx or .csv, relative to the workspace (e.g. "reports/summary.xlsx").' }),
    sheet: Type.Optional(Type.String({ description: 'Sheet to write (xlsx). A new name adds a sheet. Default: "Sheet1" in a new file, else the first visible sheet.' })),
    rows: Type.Optional(Type.Array(Type.Array(Value), { description: 'Rows of values written from A1, e.g. [["이름","금액"],["가나상사",1200]]. "2024-01-05" is stored as a date.' })),
    cells: Type.Optional(
      Type.Array(Type.Object({ ref: Type.String({ description: 'Cell, e.g. "C7".' }), value: Value }, { additionalProperties: false }), {
        description: 'Cells to change in an existing file, e.g. [{"ref":"C7","value":1300}]; null empties a cell.',
      }),
    ),
    overwrite: Type.Optional(Type.Boolean({ description: 'With rows: replace an existing sheet (or the whole file when no sheet is named). Default false.' })),
  },
  { additionalProperties: false },
);

type WriteArgs = {
  path: string;
  sheet?: string | undefined;
  rows?: InputValue[][] | undefined;
  cells?: { ref: string; value: InputValue }[] | undefined;
  overwrite?: boolean | undefined;
};

/** Macro-enabled and add-in formats: writing one is execution-equivalent (SPEC G-APPROVE). */
const MACRO_EXTENSIONS = ['xlsm', 'xltm', 'xlam', 'xla', 'xlsb'];
const DEFAULT_SHEET = 'Sheet1';
/** Rows of a new file shown in the approval. */
const PREVIEW_ROWS = 20;

type Mode = 'new-file' | 'replace-file' | 'new-sheet' | 'replace-sheet' | 'cells';

interface PreparedWrite {
  readonly path: string;
  readonly fingerprint: Fingerprint | null;
  readonly bytes: Uint8Array;
  readonly preview: string;
  readonly mode: Mode;
  readonly sheet: string;
  readonly changed: number;
  readonly encoding?: TextEncodingName;
}

function macroRefusal(path: string): Failure {
  return failure(
    text(
      `'${path}'은(는) 매크로를 담을 수 있는 형식이라 쓸 수 없습니다 (실행 파일을 만드는 것과 같습니다). 확장자를 .xlsx로 바꿔 다시 요청하세요.`,
      `'${path}' is a macro-enabled format and cannot be written (that amounts to creating a program). Use the .xlsx extension instead.`,
    ),
  );
}

function formatRefusal(path: string, ext: string): Failure {
  return failure(
    ext === 'xls'
      ? text(`옛 엑셀 형식(.xls)은 쓸 수 없습니다. '${path}' 대신 .xlsx 파일로 쓰세요.`, `The old Excel format (.xls) cannot be written. Write a .xlsx file instead of '${path}'.`)
      : text(
          `excel.write는 .xlsx와 .csv 파일만 씁니다. 텍스트 파일은 filesystem.write로 쓰세요.`,
          `excel.write writes .xlsx and .csv files only. Write text files with filesystem.write.`,
        ),
  );
}

function argsRefusal(args: WriteArgs): Failure | null {
  if (args.rows === undefined && args.cells === undefined) {
    return failure(text('쓸 내용이 없습니다. rows(A1부터 채울 행들)나 cells(바꿀 칸들) 중 하나를 주세요.', 'Nothing to write. Give rows (rows filled in from A1) or cells (cells to change).'));
  }
  if (args.rows !== undefined && args.cells !== undefined) {
    return failure(text('rows와 cells를 함께 줄 수 없습니다. 한 번에 하나씩 요청하세요.', 'rows and cells cannot be given together. Make one request for each.'));
  }
  const count = args.rows ? args.rows.reduce((n, r) => n + r.length, 0) : (args.cells?.length ?? 0);
  if (count === 0) {
    return failure(text('rows나 cells가 비어 있습니다. 쓸 값을 하나 이상 주세요.', 'rows or cells is empty. Give at least one value to write.'));
  }
  if (count > MAX_WRITE_CELLS) {
    return failure(
      text(`한 번에 칸 ${MAX_WRITE_CELLS}개까지 쓸 수 있습니다 (요청: ${count}개). 나눠서 요청하세요.`, `At most ${MAX_WRITE_CELLS} cells per call (asked: ${count}). Split the work.`),
    );
  }
  return args.sheet !== undefined ? badSheetName(args.sheet) : null;
}

function existsRefusal(path: string): Failure {
  return failure(
    text(
      `'${path}'이(가) 이미 있습니다. 칸 몇 개만 바꾸려면 cells를, 새 시트를 더하려면 sheet에 새 이름을, 내용 전체를 바꾸려면 overwrite: true를 주세요.`,
      `'${path}' already exists. To change a few cells give cells; to add a sheet give a new name as sheet; to replace the content pass overwrite: true.`,
    ),
  );
}

/** Existing files are read whole to be changed; beyond the limit the way on is a new file. */
function tooLargeToUpdate(path: string, size: number, limit: number): Failure {
  return failure(
    text(
      `'${path}'은(는) ${humanSize(size)}로 커서 고칠 수 없습니다 (최대 ${humanSize(limit)}). 바뀐 내용을 새 파일로 쓰세요.`,
      `'${path}' is ${humanSize(size)}, too large to update (at most ${humanSize(limit)}). Write the changed content to a new file.`,
    ),
  );
}

function nothingChanges(path: string): Failure {
  return failure(text(`'${path}'에 이미 똑같은 값이 있습니다. 바꿀 것이 없습니다.`, `'${path}' already holds exactly these values. There is nothing to change.`));
}

/** The new file's first rows, as excel.read would show them. */
function newContentPreview(edits: readonly CellEdit[], sheet: string, lang: Lang): string {
  const byRow = new Map<number, (typeof edits)[number]['value'][]>();
  let width = 1;
  for (const e of edits) {
    const row = byRow.get(e.ref.row) ?? [];
    row[e.ref.col - 1] = e.value;
    byRow.set(e.ref.row, row);
    width = Math.max(width, e.ref.col);
  }
  const rows: RowData[] = [...byRow.entries()].sort((a, b) => a[0] - b[0]).map(([index, cells]) => ({ index, cells: Array.from({ length: width }, (_, i) => cells[i] ?? null) }));
  const columns = { first: 1, last: Math.min(width, 40) };
  const lines = [pick(text(`시트 '${sheet}' (새 내용)`, `sheet '${sheet}' (new content)`), lang), headerLine(columns, undefined, '#'), ...rows.slice(0, PREVIEW_ROWS).map((r) => rowLine(columns, r))];
  if (rows.length > PREVIEW_ROWS) lines.push(pick(text(`… (${rows.length - PREVIEW_ROWS}행 더, 모두 ${rows.length}행)`, `… (${rows.length - PREVIEW_ROWS} more rows, ${rows.length} in all)`), lang));
  return lines.join('\n');
}

/** A sheet replaced whole: the new cells, and every old filled cell they do not cover emptied. */
function replacementEdits(edits: readonly CellEdit[], oldFilled: readonly CellRef[]): CellEdit[] {
  const covered = new Set(edits.map((e) => `${e.ref.row}:${e.ref.col}`));
  return [...edits, ...oldFilled.filter((r) => !covered.has(`${r.row}:${r.col}`)).map((ref) => ({ ref, value: null }))];
}

async function prepareCsv(args: WriteArgs, ctx: PlanContext, path: string, edits: CellEdit[], existing: { size: number } | null, fingerprint: Fingerprint | null): Promise<PreparedWrite | Failure> {
  const { files, lang } = ctx;
  const sheet = args.path;
  if (edits.some((e) => formulaLike(e.value))) {
    return failure(
      text(
        'CSV에는 =, +, -, @로 시작하는 글을 쓸 수 없습니다: 엑셀이 이런 칸을 수식으로 실행합니다. 앞에 작은따옴표(\')나 공백을 붙이거나 .xlsx 파일로 쓰세요.',
        'CSV fields may not start with =, +, - or @: Excel runs such fields as formulas. Put an apostrophe (\') or a space in front, or write a .xlsx file.',
      ),
    );
  }
  if (!existing) {
    const grid = CsvGrid.empty();
    grid.apply(edits);
    // Korean Excel opens a BOM-less UTF-8 CSV as CP949 and shows garbage; the BOM makes it read UTF-8.
    const bytes = encodeAs(grid.serialize(extensionOf(path) === 'tsv' ? '\t' : ',', true), 'utf-8-bom');
    return { path, fingerprint, bytes, preview: newContentPreview(edits, sheet, lang), mode: 'new-file', sheet, changed: edits.length, encoding: 'utf-8-bom' };
  }
  if (args.rows && !args.overwrite) return existsRefusal(args.path);
  const old = decodeText(await files.readBytes(path, { maxBytes: existing.size + 1 }));
  const delimiter = detectDelimiter(old.text.slice(0, 64 * 1024), extensionOf(path) === 'tsv');
  const grid = CsvGrid.parse(old.text, delimiter);
  const planned = args.rows ? replacementEdits(edits, grid.filledCells()) : edits;
  const changes = changesOf(planned, (ref) => grid.value(ref));
  if (changes.length === 0) return nothingChanges(args.path);
  if (args.rows) grid.clear();
  grid.apply(planned);
  const content = grid.serialize(delimiter, old.text.includes('\r\n') || !old.text.includes('\n'));
  const bad = unencodable(content, old.encoding);
  if (bad.length > 0) {
    return failure(
      text(
        `'${args.path}'은(는) ${encodingLabel(old.encoding)} 파일이라 ${bad.join(' ')} 글자를 저장할 수 없습니다. 그 글자를 빼거나 바꿔서 다시 요청하세요.`,
        `'${args.path}' is a ${encodingLabel(old.encoding)} file and cannot store ${bad.join(' ')}. Leave those characters out or replace them, then try again.`,
      ),
    );
  }
  return { path, fingerprint, bytes: encodeAs(content, old.encoding), preview: renderChanges(sheet, changes, lang), mode: args.rows ? 'replace-file' : 'cells', sheet, changed: changes.length, encoding: old.encoding };
}

async function prepareXlsx(args: WriteArgs, ctx: PlanContext, path: string, edits: CellEdit[], existing: { size: number } | null, fingerprint: Fingerprint | null): Promise<PreparedWrite | Failure> {
  const { files, lang } = ctx;
  if (!existing || (args.rows && args.overwrite && args.sheet === undefined)) {
    const sheet = args.sheet ?? DEFAULT_SHEET;
    const made = await newWorkbook(sheet);
    applyEdits(made.sheet, edits);
    const bytes = await workbookBytes(made.workbook);
    const preview = (existing ? `${pick(text(`[${humanSize(existing.size)} 파일 전체를 새 통합 문서로 바꿉니다]`, `[replaces the whole ${humanSize(existing.size)} file with a new workbook]`), lang)}\n` : '') + newContentPreview(edits, sheet, lang);
    return { path, fingerprint, bytes, preview, mode: existing ? 'replace-file' : 'new-file', sheet, changed: edits.length };
  }
  const book = await openXlsx(files, path, existing.size);
  if (isBookProblem(book)) return failure(problemText(book, args.path));
  if (book.extras.includes('macros')) return macroRefusal(args.path);
  if (book.extras.length > 0) {
    const what = extrasText(book.extras);
    return failure(
      text(
        `'${args.path}'에는 ${what.ko}이(가) 있어 고쳐 쓰면 그 부분이 사라집니다. 바뀐 내용을 다른 이름의 새 .xlsx 파일로 쓰세요.`,
        `'${args.path}' holds ${what.en}, which rewriting it would lose. Write the changed content to a new .xlsx file with another name.`,
      ),
    );
  }
  let workbook;
  try {
    workbook = await loadWorkbook(await files.readBytes(path, { maxBytes: existing.size + 1 }));
  } catch {
    return failure(problemText({ problem: 'damaged' }, args.path));
  }
  const named = args.sheet !== undefined ? findWorksheet(workbook, args.sheet) : workbook.worksheets.find((w) => w.state === 'visible') ?? workbook.worksheets[0];
  if (!named && args.cells) {
    return failure(unknownSheetText(args.path, args.sheet ?? '', workbook.worksheets.map((w, position) => ({ position, name: w.name, state: 'visible' as const }))));
  }
  if (!named) {
    const sheet = workbook.addWorksheet(args.sheet!);
    applyEdits(sheet, edits);
    const preview = `${pick(text(`새 시트 '${sheet.name}'을(를) 더합니다.`, `Adds the new sheet '${sheet.name}'.`), lang)}\n${newContentPreview(edits, sheet.name, lang)}`;
    return { path, fingerprint, bytes: await workbookBytes(workbook), preview, mode: 'new-sheet', sheet: sheet.name, changed: edits.length };
  }
  if (args.rows && !args.overwrite) return existsRefusal(args.path);
  const planned = args.rows ? replacementEdits(edits, filledCells(named)) : edits;
  const changes: CellChange[] = changesOf(planned, valueReader(named));
  if (changes.length === 0) return nothingChanges(args.path);
  applyEdits(named, planned);
  return { path, fingerprint, bytes: await workbookBytes(workbook), preview: renderChanges(named.name, changes, lang), mode: args.rows ? 'replace-sheet' : 'cells', sheet: named.name, changed: changes.length };
}

/**
 * Everything a write needs, from the arguments and the file as it is now. Plan and execution both
 * call it; execution writes only if the file still has the approved fingerprint, so the cells
 * written are the ones the approval's diff listed.
 */
async function prepareWrite(args: WriteArgs, ctx: PlanContext): Promise<PreparedWrite | Failure> {
  const { files } = ctx;
  const refused = await checkWrite(args, ctx);
  if (refused) return refused;
  const path = files.resolve(args.path);
  const existing = await attempt(files, () => files.stat(args.path));
  if (existing !== null && 'failure' in existing) return existing;
  const parent = await attempt(files, () => files.stat(parentPath(path)));
  if (parent !== null && 'failure' in parent) return parent;
  if (parent === null) {
    const folder = displayOf(files, parentPath(path));
    return failure(text(`폴더 '${folder}'이(가) 없습니다. filesystem.mkdir로 먼저 만드세요.`, `The folder '${folder}' does not exist. Create it first with filesystem.mkdir.`));
  }
  const limit = extensionOf(path) === 'xlsx' ? MAX_UPDATE_BYTES : MAX_CSV_BYTES;
  if (existing && existing.size > limit) return tooLargeToUpdate(args.path, existing.size, limit);
  // With the content hash: the gate re-hashes before writing, so a same-size edit nobody saw is caught.
  const fingerprint = existing ? await attempt(files, () => files.fingerprint(args.path, { content: true })) : null;
  if (fingerprint !== null && 'failure' in fingerprint) return fingerprint;
  const edits = args.rows ? editsFromRows(args.rows) : editsFromCells(args.cells ?? []);
  if (isFailure(edits)) return edits;
  const size = existing ? { size: existing.size } : null;
  try {
    return extensionOf(path) === 'xlsx' ? await prepareXlsx(args, ctx, existing ? existing.path : path, edits, size, fingerprint) : await prepareCsv(args, ctx, existing ? existing.path : path, edits, size, fingerprint);
  } catch (e) {
    return asFailure(e, files);
  }
}

/** The checks from arguments and the file's existence that precheck and plan share. */
async function checkWrite(args: WriteArgs, ctx: PlanContext): Promise<Failure | null> {
  const { files } = ctx;
  if (args.path.trim() === '') return failure(emptyPathText('path'));
  const wildcard = refuseWildcardName(args.path, 'path');
  if (wildcard) return wildcard;
  const ext = extensionOf(args.path);
  if (MACRO_EXTENSIONS.includes(ext)) return macroRefusal(args.path);
  if (!['xlsx', 'csv', 'tsv'].includes(ext)) return formatRefusal(args.path, ext);
  const wrong = argsRefusal(args);
  if (wrong) return wrong;
  const existing = await attempt(files, () => files.stat(args.path));
  if (existing !== null && 'failure' in existing) return existing;
  if (existing?.type === 'directory') return refusal('IS_DIRECTORY', args.path);
  if (existing && existing.type !== 'file') return notRegularFile(args.path);
  if (existing && args.rows && !args.overwrite && args.sheet === undefined) return existsRefusal(args.path);
  return null;
}

function writtenHeadline(shown: string, p: PreparedWrite): Text {
  const size = humanSize(p.bytes.length);
  const enc = p.encoding ? `, ${encodingLabel(p.encoding)}` : '';
  switch (p.mode) {
    case 'new-file':
      return text(`${quoted(shown, '을')} 만들었습니다 (칸 ${p.changed}개, ${size}${enc}).`, `Created '${shown}' (${p.changed} cells, ${size}${enc}).`);
    case 'replace-file':
      return text(`${quoted(shown, '을')} 새 내용으로 바꿨습니다 (${size}${enc}).`, `Replaced the content of '${shown}' (${size}${enc}).`);
    case 'new-sheet':
      return text(`${quoted(shown)}에 시트 '${p.sheet}'을(를) 더했습니다 (칸 ${p.changed}개).`, `Added the sheet '${p.sheet}' to '${shown}' (${p.changed} cells).`);
    case 'replace-sheet':
    case 'cells':
      return text(`${quoted(shown)}의 시트 '${p.sheet}'에서 칸 ${p.changed}개를 바꿨습니다.`, `Changed ${p.changed} cell(s) of the sheet '${p.sheet}' in '${shown}'.`);
  }
}

export const excelWrite = defineTool({
  name: 'excel.write',
  description: {
    ko: '엑셀(.xlsx)·CSV 파일을 씁니다: rows로 새 파일이나 새 시트, cells로 있는 파일의 칸 수정(승인 창에 칸별 변경 표시). .xlsm은 쓸 수 없습니다.',
    en: 'Write an Excel (.xlsx) or CSV file: rows for a new file or sheet, cells to change cells of an existing one (the approval lists each cell). No .xlsm.',
  },
  keywords: ['엑셀 쓰기', '엑셀 저장', '표 만들기', '칸 수정', '시트 추가', 'CSV 저장', 'excel', 'xlsx', 'write sheet', 'update cells', 'spreadsheet', 'save table'],
  input,
  risk: 'write',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'exclusive',
  capabilities: ['files'],

  precheck: (args, ctx) => checkWrite(args, ctx),

  async plan(args, ctx): Promise<Plan | Failure> {
    const prepared = await prepareWrite(args, ctx);
    if (isFailure(prepared)) return prepared;
    return { targets: [{ path: prepared.path, fingerprint: prepared.fingerprint }], preview: prepared.preview };
  },

  summarize(args, plan, { files }) {
    const target = plan.targets[0];
    const shown = target ? displayOf(files, target.path) : args.path;
    const sheet = args.sheet ? text(` 시트 '${args.sheet}'`, ` sheet '${args.sheet}' of`) : text('', '');
    if (!target?.fingerprint) {
      const n = args.rows?.length ?? args.cells?.length ?? 0;
      return text(`새 파일 ${quoted(shown, '을')} 만듭니다 (${args.rows ? `${n}행` : `칸 ${n}개`})`, `Creates the new file '${shown}' (${n} ${args.rows ? 'rows' : 'cells'})`);
    }
    if (args.cells) return text(`${quoted(shown)}${sheet.ko}의 칸 ${args.cells.length}개를 바꿉니다`, `Changes ${args.cells.length} cell(s) in${sheet.en} '${shown}'`);
    return text(`${quoted(shown)}${sheet.ko}에 ${args.rows?.length ?? 0}행을 씁니다`, `Writes ${args.rows?.length ?? 0} rows to${sheet.en} '${shown}'`);
  },

  async execute(args, ctx) {
    const { files, lang } = ctx;
    const target = ctx.plan.targets[0];
    if (!target) return fail(lang, emptyPathText('path'));
    const shown = displayOf(files, target.path);
    let prepared: PreparedWrite | undefined;
    const run = await runTargets(ctx, async () => {
      const now = await prepareWrite(args, ctx);
      if (isFailure(now)) return now;
      if (!sameFingerprint(now.fingerprint, target.fingerprint)) return refusal('CHANGED', shown);
      prepared = now;
      // Overwrite only what was approved as existing; a file that appeared since is not replaced.
      await files.writeAtomic(target.path, now.bytes, { overwrite: target.fingerprint !== null });
      return null;
    });
    const refused = run.done.find((d) => d.value !== null)?.value;
    if (refused) return fail(lang, refused.failure);
    const headline = prepared ? writtenHeadline(shown, prepared) : text(`${quoted(shown, '을')} 저장하지 못했습니다.`, `'${shown}' was not written.`);
    return renderRun(run, lang, { headline, doneLines: [], details: prepared ? { mode: prepared.mode, sheet: prepared.sheet, cells: prepared.changed } : {} }, files);
  },
});

