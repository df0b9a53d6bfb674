/**
 * Where a job may write, as an absolute path (DESIGN §2, §9.6): a plain workspace-relative path the
 * job's allowance names, whose folder and whose file do not lead out of the workspace through a
 * link. The one check every write goes through (writer.ts), apart from the writer so a reader that
 * only appends to the use log (runlog/usage-log.ts) makes the same check without loading the locks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemError } from '../core/errors.js';
import { isLink, outsideTarget } from '../core/outside-link.js';
import { mayWrite, type Job } from './allowance.js';

/** `root`: the workspace's real path. Absolute path for `rel`, or WRITE_DENIED. */
export function writablePath(root: string, job: Job, rel: string): string {
  if (rel.includes('\0') || path.isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) {
    throw new MemError(
      'WRITE_DENIED',
      `${job}: refused to write "${rel.replaceAll('\0', '\\0')}": not a plain path inside the workspace`,
    );
  }
  const posix = rel.split(path.sep).join('/');
  if (!mayWrite(job, posix)) {
    throw new MemError('WRITE_DENIED', `${job} may not write ${posix} (see the write allowance in DESIGN §2)`);
  }
  const abs = path.join(root, posix);
  const parent = nearestExisting(path.dirname(abs));
  const real = fs.realpathSync(parent);
  if (real !== root && !real.startsWith(root + path.sep)) {
    throw new MemError(
      'WRITE_DENIED',
      `${job}: refused to write ${posix}: ${path.relative(root, parent)} leads outside the workspace`,
    );
  }
  // The file itself a link out of the workspace: writing it would copy outside content in (or change an outside file).
  const outside = isLink(abs) ? outsideTarget(abs, [root]) : undefined;
  if (outside)
    throw new MemError(
      'WRITE_DENIED',
      `${job}: refused to write ${posix}: it is a link to ${outside}, outside the workspace`,
    );
  return abs;
}

function nearestExisting(dir: string): string {
  let d = dir;
  while (!fs.existsSync(d) && path.dirname(d) !== d) d = path.dirname(d);
  return d;
}
