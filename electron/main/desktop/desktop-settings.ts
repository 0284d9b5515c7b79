import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * What the settings screen saves for the next start: the UI language and the chosen model. Not
 * the policy's user settings (settings.json, tighten-only rules): these are preferences, and the
 * model is checked against the policy again at every start, so a file edited by hand cannot
 * widen anything. A file that does not parse is ignored (the app starts with its defaults).
 */
const Schema = Type.Object(
  {
    lang: Type.Optional(Type.Union([Type.Literal('ko'), Type.Literal('en')])),
    model: Type.Optional(Type.String({ minLength: 1, maxLength: 2_000 })),
  },
  { additionalProperties: false },
);

export type DesktopSettings = Static<typeof Schema>;

export function desktopSettingsFile(dataDir: string): string {
  return join(dataDir, 'desktop-settings.json');
}

export class DesktopSettingsStore {
  #value: DesktopSettings;

  private constructor(
    private readonly file: string,
    value: DesktopSettings,
  ) {
    this.#value = value;
  }

  static open(file: string, log: (message: string) => void = () => undefined): DesktopSettingsStore {
    let value: DesktopSettings = {};
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (Value.Check(Schema, parsed)) value = parsed;
      else log(`${file} does not have the desktop settings' shape; starting with the defaults`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log(`${file} could not be read (${String(error)}); starting with the defaults`);
    }
    return new DesktopSettingsStore(file, value);
  }

  get value(): DesktopSettings {
    return this.#value;
  }

  /** Saves a change (written aside, then renamed: a crash never leaves half a file). */
  update(change: DesktopSettings): void {
    const next = { ...this.#value, ...change };
    mkdirSync(dirname(this.file), { recursive: true });
    const aside = `${this.file}.${process.pid}.tmp`;
    writeFileSync(aside, `${JSON.stringify(next, null, 2)}\n`);
    renameSync(aside, this.file);
    this.#value = next;
  }
}
