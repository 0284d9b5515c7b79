import { app, dialog, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { pick, type Lang } from '../../common/i18n';
import type { SaveDialog } from '../desktop/save-dialog';

/**
 * Electron's own save dialog for audit exports: the person picks the file, the page never names
 * a path (electron/main/desktop/save-dialog.ts). Modal to the window when there is one.
 */
export function electronSaveDialog(window: () => BrowserWindow | null, lang: Lang): SaveDialog {
  return {
    async choose(request) {
      const options = {
        title: pick(request.title, lang),
        defaultPath: join(app.getPath('documents'), request.defaultName),
        filters: [{ name: pick(request.filterName, lang), extensions: [request.extension] }],
        properties: ['createDirectory' as const, 'showOverwriteConfirmation' as const],
      };
      const parent = window();
      const answer = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
      return answer.canceled || !answer.filePath ? null : answer.filePath;
    },
  };
}
