/** Lock settings from the configuration's `limits`, with defaults for commands that run before one exists. */
import type { Config } from '../config/schema.js';
import type { LockOptions } from './locks.js';

export function defaultLockOptions(config?: Config): LockOptions {
  const limits = config?.limits;
  return {
    waitMs: limits?.lockWaitMs ?? 10_000,
    staleMs: limits?.lockStaleMs ?? 60_000,
    ...(limits?.lockUpdateMs ? { updateMs: limits.lockUpdateMs } : {}),
  };
}
