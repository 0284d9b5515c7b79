import { Type } from '@sinclair/typebox';
import { pick, text, type Lang } from '../../electron/common/i18n';
import type { SystemSnapshot } from '../../electron/common/system-capability';
import { defineTool } from '../kit/define-tool';
import { ok } from '../kit/results';
import { humanSize } from '../kit/sizes';

const input = Type.Object({}, { additionalProperties: false });

function duration(seconds: number, lang: Lang): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  const ko = `${days > 0 ? `${days}일 ` : ''}${hours}시간 ${minutes}분`;
  const en = `${days > 0 ? `${days} d ` : ''}${hours} h ${minutes} min`;
  return pick(text(ko, en), lang);
}

function percent(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((part / whole) * 100)}%` : '?';
}

function render(s: SystemSnapshot, lang: Lang): string {
  const line = (ko: string, en: string) => pick(text(ko, en), lang);
  const lines = [
    line(`운영체제: ${s.os.name} ${s.os.release} (${s.os.arch})`, `Operating system: ${s.os.name} ${s.os.release} (${s.os.arch})`),
    line(`컴퓨터 이름: ${s.hostname}`, `Computer name: ${s.hostname}`),
    line(`켜진 지: ${duration(s.uptimeSeconds, 'ko')}`, `Up for: ${duration(s.uptimeSeconds, 'en')}`),
    line(`CPU: ${s.cpu.model}, 코어 ${s.cpu.cores}개`, `CPU: ${s.cpu.model}, ${s.cpu.cores} cores`),
    line(
      `메모리: 전체 ${humanSize(s.memory.totalBytes)}, 여유 ${humanSize(s.memory.freeBytes)} (${percent(s.memory.freeBytes, s.memory.totalBytes)})`,
      `Memory: ${humanSize(s.memory.totalBytes)} total, ${humanSize(s.memory.freeBytes)} free (${percent(s.memory.freeBytes, s.memory.totalBytes)})`,
    ),
    ...s.disks.map((d) =>
      line(
        `작업 폴더 디스크 ${d.root}: 전체 ${humanSize(d.totalBytes)}, 쓸 수 있는 공간 ${humanSize(d.availableBytes)} (${percent(d.availableBytes, d.totalBytes)})`,
        `Workspace disk ${d.root}: ${humanSize(d.totalBytes)} total, ${humanSize(d.availableBytes)} available (${percent(d.availableBytes, d.totalBytes)})`,
      ),
    ),
    ...s.unreadableRoots.map((root) => line(`작업 폴더 디스크 ${root}: 읽을 수 없음`, `Workspace disk ${root}: could not be read`)),
    line(`시간대: ${s.timeZone}`, `Time zone: ${s.timeZone}`),
  ];
  return lines.join('\n');
}

export const systemInfo = defineTool({
  name: 'system.info',
  description: {
    ko: '이 컴퓨터의 운영체제, CPU, 메모리, 작업 폴더 디스크의 남은 공간을 봅니다. 명령을 실행하지 않습니다.',
    en: "Show this computer's OS, CPU, memory and the free space on the workspace disks. Runs no command.",
  },
  keywords: ['시스템', '컴퓨터 정보', '디스크', '용량', '남은 공간', '메모리', 'system', 'disk', 'free space', 'df', 'memory', 'uname'],
  input,
  risk: 'read',
  subject: null,
  concurrency: 'parallel-safe',
  capabilities: ['system'],

  summarize: () => text('이 컴퓨터의 정보를 봅니다', "Shows this computer's details"),

  async execute(_args, ctx) {
    const snapshot = await ctx.system.snapshot();
    return ok(render(snapshot, ctx.lang), {
      disks: snapshot.disks.map((d) => ({ root: d.root, availableBytes: d.availableBytes, totalBytes: d.totalBytes })),
      memoryFreeBytes: snapshot.memory.freeBytes,
    });
  },
});
