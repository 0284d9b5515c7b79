import type { Text } from '../../common/i18n';

/**
 * Where an export goes is chosen by the person in main's own save dialog, never by the page: a
 * page that could name a path could make main write anywhere the user can. Electron's
 * dialog.showSaveDialog implements this in app/ (electron-save-dialog.ts); the browser preview and
 * the e2e tests use a harness implementation that answers with a path in its temp folder.
 */
export interface SaveDialog {
  /** The chosen file, or null when the person cancelled. */
  choose(request: SaveRequest): Promise<string | null>;
}

export interface SaveRequest {
  readonly title: Text;
  /** File name offered (`baram-audit-20261203-1504.csv`); the dialog opens in the documents folder. */
  readonly defaultName: string;
  /** The format's extension without the dot (`csv`, `jsonl`, `log`, `cef`). */
  readonly extension: string;
  readonly filterName: Text;
}
