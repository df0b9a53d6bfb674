/**
 * A Task's state (todo, doing, done, blocked: a field apart from the lifecycle status), from how the
 * statement says it: "blocked on", "is stuck", "卡住" before "done", "完成了" before "working on".
 * Pure; statement.ts sets it on every Task it builds.
 */
export function taskState(statement: string): 'todo' | 'doing' | 'done' | 'blocked' {
  if (
    /\bblocked\b|\bstuck\s+on\b|\b(?:is|are|am|got)\s+(?:still\s+)?stuck\b|['’]re\s+stuck\b|(?:\b(?:is|are|am)|['’](?:re|m))\s+(?:still\s+)?waiting\s+(?:on|for)\b|卡住|卡[关關在着著]|阻塞|等[^，,。]{1,12}回[复覆]中/i.test(
      statement,
    )
  )
    return 'blocked';
  if (
    /\b(?:done|finished|completed?|shipped|merged|wrapped\s+up|ship)\b|已[经經]?完成|完成了|[做写寫改修弄搞][完好]了|搞定|上[线線]了|好了/i.test(
      statement,
    )
  )
    return 'done';
  if (
    /\bin\s+progress\b|\bunder\s*way\b|\bhalfway\b|\bpicked\s+up\b|\bheads\s+down\b|[做弄写寫]了一半|做到一半|\bworking\s+on\b|\bstarted\b|\bstart\s*了|进行中|進行中|[开開]始(?:做|弄|写|寫|搞|[处處]理|修|改|重构|重構|接|整理|实现|實作)|着手|著手|[还還]在做|正在|在弄|(?:^|[我们們\s])(?:[还還])?在\s*(?:debug|fix|refactor|修|写|寫|做|搞)/i.test(
      statement,
    )
  )
    return 'doing';
  return 'todo';
}
