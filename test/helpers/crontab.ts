/** A fake `crontab` command (MEM_CRONTAB_CMD) keeping the crontab in a temp file: tests never touch the real one. */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';

export function fakeCrontab(t: Parameters<typeof tempDir>[0], initial?: string): { cmd: string; file: string } {
  const dir = tempDir(t);
  const file = join(dir, 'crontab.txt');
  if (initial !== undefined) writeFileSync(file, initial);
  const cmd = join(dir, 'crontab.sh');
  writeFileSync(
    cmd,
    `#!/bin/sh\nif [ "$1" = "-l" ]; then\n  [ -f "${file}" ] || { echo "no crontab for tester" >&2; exit 1; }\n  cat "${file}"\nelse\n  cat > "${file}"\nfi\n`,
  );
  chmodSync(cmd, 0o755);
  return { cmd, file };
}
