/**
 * The longest wait a Node timer holds: setTimeout and setInterval take a signed 32-bit count of
 * milliseconds, and replace a longer one by 1 ms (TimeoutOverflowWarning). A time limit of 35 days
 * would then kill every run at once, a refresh period run back to back; so every millisecond
 * setting that ends in a timer is bounded by this (zod-free: the lean entry checks it too).
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** What a config error or a usage error says about a longer time. */
export const MAX_TIMER_TEXT = `at most ${MAX_TIMER_MS} ms (about 24.8 days: longer does not fit a timer)`;
