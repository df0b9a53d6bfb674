/** A word for a POSIX shell line (crontab, git config, hooks): as it is when safe, else single-quoted. */
export function quote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}
