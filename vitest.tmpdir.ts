/**
 * Global setup of both vitest configs: every test run gets its own temporary folder (tests create content
 * roots, SQLite files and keys below `os.tmpdir()`), removed when the run ends, so runs leave nothing behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tests-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
