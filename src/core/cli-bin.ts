/** The CLI's own entry file, for what runs `mem` again: a job's child process, crontab and launchd lines, git hooks. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/mem.js');
