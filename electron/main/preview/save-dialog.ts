import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SaveDialog, SaveRequest } from '../desktop/save-dialog';

/**
 * The preview's stand-in for Electron's save dialog (the page still never names a path): by
 * default it "saves" under the preview's own temp folder with the name offered; a test can set
 * the next answer (a path of its choosing, or null for Cancel) and read what was asked.
 */
export class PreviewSaveDialog implements SaveDialog {
  private next: { readonly file: string | null } | undefined;
  private readonly asked: SaveRequest[] = [];

  constructor(private readonly dir: string) {}

  /** The next choose() answers `file` (null: the person pressed Cancel). */
  answerNext(file: string | null): void {
    this.next = { file };
  }

  requests(): readonly SaveRequest[] {
    return [...this.asked];
  }

  async choose(request: SaveRequest): Promise<string | null> {
    this.asked.push(request);
    const answer = this.next;
    this.next = undefined;
    if (answer) return answer.file;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    return join(this.dir, request.defaultName);
  }
}
