/**
 * A minimal glob matcher for source paths: `*` and `?` within one path segment, `**` across
 * segments, `{a,b}` alternatives. Node 20 has no fs.glob and picomatch is not a dependency; source
 * patterns are simple (`~/.codex/sessions/**\/rollout-*.jsonl`), so this is all they need.
 */

const GLOB_CHARS = /[*?{]/;

export function hasGlob(pattern: string): boolean {
  return GLOB_CHARS.test(pattern);
}

/** Splits an absolute "/"-separated pattern into its literal directory and the glob below it. */
export function splitGlob(pattern: string): { base: string; glob: string } {
  const segments = pattern.split('/');
  const first = segments.findIndex((s) => hasGlob(s));
  if (first === -1) return { base: pattern, glob: '' };
  const base = segments.slice(0, first).join('/') || '/';
  return { base, glob: segments.slice(first).join('/') };
}

/** Matches a relative "/"-separated path against the whole glob. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${toSource(glob)}$`);
}

function toSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') {
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '{') {
      const close = glob.indexOf('}', i);
      if (close === -1) {
        out += '\\{';
        continue;
      }
      out += `(?:${glob
        .slice(i + 1, close)
        .split(',')
        .map(toSource)
        .join('|')})`;
      i = close;
    } else {
      out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
    }
  }
  return out;
}
