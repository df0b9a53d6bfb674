/**
 * launchd agents of one workspace, pure: one plist per job, named with a label that carries a hash
 * of the workspace path (`com.memfold.<hash>.<job>`), so uninstall removes exactly this workspace's
 * agents. Cron fields become StartCalendarInterval dictionaries (launchd has no `*` or steps, so
 * lists expand; a day-of-month and a weekday restriction become two sets, as cron ORs them).
 */
import type { JobCommand } from './crontab.js';
import { cronFields } from './zone.js';

const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export function calendarIntervals(expr: string): Array<Record<string, number>> {
  const f = cronFields(expr);
  const base: Array<Record<string, number>> = [{}];
  const expand = (list: Array<Record<string, number>>, key: string, values?: number[]) =>
    values ? list.flatMap((d) => values.map((v) => ({ ...d, [key]: v }))) : list;
  let common = expand(expand(expand(base, 'Minute', f.minute), 'Hour', f.hour), 'Month', f.month);
  if (f.day && f.weekday) return [...expand(common, 'Day', f.day), ...expand(common, 'Weekday', f.weekday)];
  common = expand(expand(common, 'Day', f.day), 'Weekday', f.weekday);
  return common;
}

export function renderPlist(label: string, j: JobCommand): string {
  const dict = (d: Record<string, number>) =>
    `    <dict>${Object.entries(d)
      .map(([k, v]) => `<key>${k}</key><integer>${v}</integer>`)
      .join('')}</dict>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- managed by "mem schedule" (memfold); "mem schedule uninstall" removes it -->
<plist version="1.0">
<dict>
  <key>Label</key><string>${esc(label)}</string>
  <key>ProgramArguments</key>
  <array>
${j.argv.map((a) => `    <string>${esc(a)}</string>`).join('\n')}
  </array>
  <key>EnvironmentVariables</key>
  <dict>${Object.entries(j.env)
    .map(([k, v]) => `<key>${esc(k)}</key><string>${esc(v)}</string>`)
    .join('')}</dict>
  <key>StartCalendarInterval</key>
  <array>
${calendarIntervals(j.cron).map(dict).join('\n')}
  </array>
  <key>StandardOutPath</key><string>${esc(j.log)}</string>
  <key>StandardErrorPath</key><string>${esc(j.log)}</string>
  <key>ProcessType</key><string>Background</string>
</dict>
</plist>
`;
}
