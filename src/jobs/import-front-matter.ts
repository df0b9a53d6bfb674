/**
 * The front matter of a host's memory file, pure: Claude Code's auto memory writes `name`,
 * `description` and `type` (some versions nest `type` under `metadata:`), Codex's rollout summaries
 * their own keys. Only what import reads is understood — `key: value` lines, one level of nesting
 * (read as `parent.key`), quoted values and `>`/`|` block scalars; anything else is skipped, never an
 * error: a hand-edited header must not stop an import.
 */

export interface FrontMatter {
  fields: Record<string, string>;
  /** 1-based line of the first line after the closing `---` (1 when there is no front matter). */
  bodyLine: number;
}

const unquote = (v: string) => {
  const t = v.trim();
  return /^(["']).*\1$/.test(t) ? t.slice(1, -1) : t;
};

export function frontMatter(text: string): FrontMatter {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { fields: {}, bodyLine: 1 };
  const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
  if (end === -1) return { fields: {}, bodyLine: 1 };
  const fields: Record<string, string> = {};
  let parent: string | undefined;
  for (let i = 1; i < end; i++) {
    const m = /^(\s*)([A-Za-z_][\w.-]*)\s*:\s*(.*)$/.exec(lines[i]!);
    if (!m) continue;
    const nested = m[1]!.length > 0;
    if (!nested) parent = undefined;
    const key = nested && parent ? `${parent}.${m[2]}` : m[2]!;
    let value = m[3]!;
    if (/^[>|][+-]?\s*$/.test(value)) {
      // A block scalar: the more-indented lines below it; `>` folds them into one line, `|` keeps the breaks.
      const block: string[] = [];
      while (i + 1 < end && (/^\s*$/.test(lines[i + 1]!) || lines[i + 1]!.search(/\S/) > m[1]!.length))
        block.push(lines[++i]!.trim());
      value = value.startsWith('>') ? block.filter(Boolean).join(' ') : block.join('\n').trim();
    } else if (!value.trim()) {
      if (!nested) parent = m[2];
      continue;
    }
    fields[key] = unquote(value);
  }
  return { fields, bodyLine: end + 2 };
}
