/**
 * The server snapshot of `GET /api/v1/sys/monitor/server` (contract §5 row shape): process CPU percent over a
 * 500 ms sample (spec "Limits"), process and machine memory, the disk of the content root's volume, runtime
 * and OS description, machine name and processor count.
 */
import { statfs } from 'node:fs/promises';
import os from 'node:os';

/** Spec: CPU sampling window. */
export const CPU_SAMPLE_MS = 500;

export interface ServerSnapshot {
  cpuPercent: number;
  memory: { processRssBytes: number; totalBytes: number; freeBytes: number };
  disk: { path: string; totalBytes: number; freeBytes: number };
  runtime: { name: string; version: string };
  machineName: string;
  osDescription: string;
  processorCount: number;
  sampledAt: string;
  /** The operation-log writer's state (issue 11): an operator sees a database refusing audit rows here. */
  opLog: { queued: number; spilled: number; replayed: number; dropped: number; failing: boolean };
}

const processors = () =>
  typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;

/**
 * Samples the process for `sampleMs` and describes the machine. CPU percent is of the whole machine
 * (100 = every processor busy with this process), rounded to 0.1.
 */
export async function sampleServer(
  contentRoot: string,
  now: () => Date,
  opLog: ServerSnapshot['opLog'],
  sampleMs = CPU_SAMPLE_MS,
): Promise<ServerSnapshot> {
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const cpu = process.cpuUsage(cpuBefore);
  const elapsedMicros = Number(process.hrtime.bigint() - started) / 1000;
  const count = processors();
  const cpuPercent = elapsedMicros > 0 ? ((cpu.user + cpu.system) / elapsedMicros / count) * 100 : 0;
  let disk = { path: contentRoot, totalBytes: 0, freeBytes: 0 };
  try {
    const fs = await statfs(contentRoot);
    disk = { path: contentRoot, totalBytes: fs.blocks * fs.bsize, freeBytes: fs.bavail * fs.bsize };
  } catch {
    // An unreadable volume reports zeros rather than failing the whole snapshot.
  }
  return {
    cpuPercent: Math.round(Math.min(100, cpuPercent) * 10) / 10,
    memory: {
      processRssBytes: process.memoryUsage.rss(),
      totalBytes: os.totalmem(),
      freeBytes: os.freemem(),
    },
    disk,
    runtime: { name: 'node', version: process.versions.node },
    machineName: os.hostname(),
    osDescription: `${os.type()} ${os.release()} (${os.version()}) ${os.arch()}`,
    processorCount: count,
    sampledAt: now().toISOString(),
    opLog,
  };
}
