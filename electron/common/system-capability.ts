/**
 * What `system.info` may learn about the machine, read by the host without running any command
 * (a model that wants `df`, `free` or `uname` asks this instead of the shell).
 */
export interface DiskSpace {
  /** The workspace root the numbers are for. */
  readonly root: string;
  readonly totalBytes: number;
  /** Bytes the current user may still write (what "free space" means to an office worker). */
  readonly availableBytes: number;
}

export interface SystemSnapshot {
  readonly os: { readonly platform: string; readonly name: string; readonly release: string; readonly arch: string };
  readonly hostname: string;
  readonly uptimeSeconds: number;
  readonly cpu: { readonly model: string; readonly cores: number };
  readonly memory: { readonly totalBytes: number; readonly freeBytes: number };
  readonly disks: readonly DiskSpace[];
  readonly timeZone: string;
  /** Roots whose disk could not be read (removed drive, permissions): named, not silently dropped. */
  readonly unreadableRoots: readonly string[];
}

export interface SystemCapability {
  snapshot(): Promise<SystemSnapshot>;
}
