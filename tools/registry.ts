import type { AnyTool } from './kit/define-tool';
import { filesystemCopy } from './filesystem/copy';
import { filesystemDelete } from './filesystem/delete';
import { filesystemEdit } from './filesystem/edit';
import { filesystemInfo } from './filesystem/info';
import { filesystemList } from './filesystem/list';
import { filesystemMkdir } from './filesystem/mkdir';
import { filesystemMove } from './filesystem/move';
import { filesystemRead } from './filesystem/read';
import { filesystemRestore } from './filesystem/restore';
import { filesystemSearch } from './filesystem/search';
import { filesystemTrash } from './filesystem/trash';
import { filesystemWrite } from './filesystem/write';
import { searchText } from './search/text';
import { excelSheets } from './excel/sheets';
import { excelRead } from './excel/read';
import { excelWrite } from './excel/write';
import { documentPdfRead } from './document/pdf-read';
import { documentWordRead } from './document/word-read';
import { documentWordWrite } from './document/word-write';
import { documentHwpRead } from './document/hwp-read';
import { archiveZip } from './archive/zip';
import { archiveUnzip } from './archive/unzip';
import { systemInfo } from './system/info';
import { httpRequest } from './http/request';
import { browserOpen } from './browser/open';
import { browserScreenshot } from './browser/screenshot';
import { sshDownload } from './ssh/download';
import { sshExecute } from './ssh/execute';
import { shellExecute } from './shell/execute';
import { shellOutput } from './shell/output';
import { gitStatus } from './git/status';
import { gitLog } from './git/log';
import { gitDiff } from './git/diff';
import { gitShow } from './git/show';
import { gitBlame } from './git/blame';
import { codeOutline } from './code/outline';
import { codeStats } from './code/stats';

/**
 * The explicit list of built-in tools, in the order the model sees them (stable, so the backend's
 * prompt cache is reused). Adding a tool here is a reviewed change: it also needs its FROZEN.json
 * entry and a changelog line. Only electron/main/gate imports this file.
 */
export const builtinTools: readonly AnyTool[] = [
  filesystemList,
  filesystemRead,
  filesystemSearch,
  filesystemInfo,
  filesystemWrite,
  filesystemEdit,
  filesystemMkdir,
  filesystemMove,
  filesystemCopy,
  filesystemDelete,
  filesystemRestore,
  filesystemTrash,
  searchText,
  excelSheets,
  excelRead,
  excelWrite,
  documentPdfRead,
  documentWordRead,
  documentWordWrite,
  documentHwpRead,
  archiveZip,
  archiveUnzip,
  systemInfo,
  httpRequest,
  browserOpen,
  browserScreenshot,
  sshExecute,
  sshDownload,
  shellExecute,
  shellOutput,
  gitStatus,
  gitLog,
  gitDiff,
  gitShow,
  gitBlame,
  codeOutline,
  codeStats,
];
