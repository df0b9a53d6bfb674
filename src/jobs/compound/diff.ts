/** A small line diff (LCS) for `mem compound --dry-run`: unified-style hunks with 2 lines of context. */

export function lineDiff(before: string, after: string, names: [string, string], context = 2): string {
  const a = before.split('\n');
  const b = after.split('\n');
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: Array<{ t: ' ' | '-' | '+'; line: string }> = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) (ops.push({ t: ' ', line: a[i++]! }), j++);
    else if (j < m && (i >= n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) ops.push({ t: '+', line: b[j++]! });
    else ops.push({ t: '-', line: a[i++]! });
  }
  if (!ops.some((o) => o.t !== ' ')) return '';
  const keep = ops.map((o, k) => ops.slice(Math.max(0, k - context), k + context + 1).some((x) => x.t !== ' '));
  const out = [`--- ${names[0]}`, `+++ ${names[1]}`];
  ops.forEach((o, k) => {
    if (!keep[k]) return;
    if (k > 0 && !keep[k - 1]) out.push('@@');
    out.push(`${o.t}${o.line}`);
  });
  return out.join('\n') + '\n';
}
