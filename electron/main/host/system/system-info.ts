import { statfs } from 'node:fs/promises';
import { arch, cpus, freemem, hostname, platform, release, totalmem, type as osType, uptime } from 'node:os';
import type { DiskSpace, SystemCapability, SystemSnapshot } from '../../../common/system-capability';

/**
 * The machine facts `system.info` reports, read through Node's os module and statfs(2) — no
 * process is started, so this tool needs no shell permission and cannot be steered into one.
 * Disk space is reported only for the workspace roots: the model has no business knowing the
 * layout of other drives.
 */
export function createSystemInfo(roots: readonly string[]): SystemCapability {
  return {
    async snapshot(): Promise<SystemSnapshot> {
      const disks: DiskSpace[] = [];
      const unreadableRoots: string[] = [];
      for (const root of roots) {
        try {
          const fs = await statfs(root);
          disks.push({ root, totalBytes: fs.blocks * fs.bsize, availableBytes: fs.bavail * fs.bsize });
        } catch {
          unreadableRoots.push(root);
        }
      }
      const cpuList = cpus();
      return {
        os: { platform: platform(), name: osType(), release: release(), arch: arch() },
        hostname: hostname(),
        uptimeSeconds: Math.round(uptime()),
        cpu: { model: cpuList[0]?.model.trim() ?? 'unknown', cores: cpuList.length },
        memory: { totalBytes: totalmem(), freeBytes: freemem() },
        disks,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        unreadableRoots,
      };
    },
  };
}
