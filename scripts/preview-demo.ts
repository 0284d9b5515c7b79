import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { textTurn, toolCallTurn, type RecordedRequest, type Turn } from '../tests/helpers/scripted-model-server';

/**
 * The demo transcript of `npm run preview`: whatever the reviewer types, the scripted model
 * proposes moving the 158 report files of 받은 문서/ into 정리/2024 (one approval listing every
 * file), then answers from the tool result it got back: moved, or denied (with the reason).
 */
export const DEMO_FILES = 158;

export function demoWorkspace(workspace: string): void {
  const inbox = join(workspace, '받은 문서');
  mkdirSync(inbox);
  for (let i = 1; i <= DEMO_FILES; i++) writeFileSync(join(inbox, `보고서-${String(i).padStart(3, '0')}.txt`), `보고서 ${i}\n`);
}

function lastToolResult(request: RecordedRequest): string {
  const messages = (request.json?.messages ?? []) as { role: string; content?: string }[];
  return [...messages].reverse().find((m) => m.role === 'tool')?.content ?? '';
}

const answer: Turn = (request) => {
  const result = lastToolResult(request);
  if (/denied|거부/i.test(result)) return textTurn(`알겠습니다. 파일을 옮기지 않았습니다. (${result.slice(0, 200)})`);
  return textTurn(`받은 문서 폴더의 보고서 파일을 정리/2024 폴더로 옮겼습니다.\n\n${result.slice(0, 300)}`, { chunkSize: 12 });
};

/** Enough rounds for a reviewer to try approve, deny and Stop several times. */
export function demoTurns(rounds = 20): Turn[] {
  const turns: Turn[] = [];
  for (let i = 0; i < rounds; i++) {
    turns.push(toolCallTurn([{ id: `call-${i}`, name: 'filesystem_move', arguments: { from: '받은 문서/*.txt', to: '정리/2024' } }]), answer);
  }
  return turns;
}
