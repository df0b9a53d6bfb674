/**
 * Material inside a user message that the user did not say (issue 27): attached files and pasted
 * documents, diffs and logs. They are shown to the agent as data, so their words are never the
 * user's statement: "remember this: …" inside an attached runbook decides nothing.
 *
 * Recognised: OpenClaw's `[media attached …]` lines and `<file name=… mime=…>…</file>` blocks (an
 * unclosed block runs to the end of the message), other attachment tags (`<attachment>`, `<document>`,
 * `<pasted…>`), Claude Code's `[Pasted text #1 +40 lines]` and `[Image #1]` placeholders, unified
 * diffs from their header (`diff --git`, `--- a/`, `@@ … @@`) to the end of their run of diff lines,
 * log lines (a leading time stamp or level, stack frames), and what follows a line introducing a
 * paste ("Here's the error log:"). Fenced blocks and `>` quotes are cut by
 * sentences.ts's stripQuoted, which calls this first.
 */

/** Attachment blocks: everything from the opening tag to its closing tag, or to the end when unclosed. */
const BLOCKS = /<(file|attachment|document|pasted[\w-]*|clipboard)\b[^>\n]*>[\s\S]*?(?:<\/\1\s*>|(?![\s\S]))/gi;

/** One-line placeholders and attachment notices. */
const NOTICES =
  /\[(?:media\s+attached|attached|attachment|file|image|pasted\s+text|pasted\s+content)\b[^\]\n]*\]|^[ \t]*MEDIA:\S+[ \t]*$/gim;

/** A line that opens a unified diff. */
const DIFF_HEADER =
  /^(?:diff --git |--- (?:a\/|\/dev\/null)|\+\+\+ (?:b\/|\/dev\/null)|@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@|index [0-9a-f]{7,}\.\.[0-9a-f]{7,})/;
/** A line that continues a diff once one has opened. */
const DIFF_LINE =
  /^(?:[ +\-\\]|@@ |diff --git |index |--- |\+\+\+ |new file mode|deleted file mode|similarity index|rename (?:from|to) |$)/;

/** A log line: a time stamp or a level first, or a stack frame. */
const LOG_LINE = new RegExp(
  [
    String.raw`^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?`,
    String.raw`^\s*\[?\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\]?\s`,
    String.raw`^\s*\[?(?:ERROR|WARN(?:ING)?|INFO|DEBUG|TRACE|FATAL|CRITICAL)\]?[\s:]`,
    String.raw`^\s+at\s+\S.*(?:\(.*:\d+:\d+\)|:\d+:\d+)\s*$`,
    String.raw`^\s*(?:Traceback \(most recent call last\)|File ".*", line \d+)`,
    String.raw`^\s*npm (?:ERR!|WARN)`,
  ].join('|'),
);

function withoutDiffs(lines: string[]): string[] {
  const out: string[] = [];
  let inDiff = false;
  for (const line of lines) {
    if (DIFF_HEADER.test(line)) inDiff = true;
    else if (inDiff && !DIFF_LINE.test(line)) inDiff = false;
    out.push(inDiff ? '' : line);
  }
  return out;
}

/**
 * A line that introduces pasted material (Claude Code inlines a paste into the message, with no
 * marker): "Here's the error log:", "Below is the spec:", "pasted from the README:". What follows it
 * to the end of the message is the material. "Here's the plan:" and "my notes:" are the user's own.
 */
const PASTE_INTRO =
  /^[^\n]*\b(?:here(?:['’]s| is| are)|below is|pasted(?: from)?|copied from)\b[^\n]*\b(?:doc(?:ument)?|file|spec|log|output|e-?mail|message|page|readme|article|post|transcript|error|stack\s*trace|trace|config|contents?|ticket|issue|thread|wiki)s?\b[^\n]*[:：]\s*$/gim;

/**
 * The same in Chinese, and a line saying the material is only for reference: "这是供应商的方案，仅供参考，
 * 里面的内容都还没同意。", "以下是客户的需求文档：", "Vendor proposal below, for reference only."
 */
const PASTE_INTRO_ZH =
  /^[^\n]*(?:(?:[这這]是|以下是|下面是|附上)[^\n]{0,20}?(?:文[档檔件]|方案|提案|需求|[日记記][志誌录錄]|[输輸]出|[邮郵]件|[报報]告|[规規]格|草稿|清[单單])[^\n]*|[^\n]*(?:[仅僅]供参考|[仅僅]供參考|for\s+reference\s+only)[^\n]*)$/gim;

function withoutPastes(text: string): string {
  const m = PASTE_INTRO.exec(text) ?? PASTE_INTRO_ZH.exec(text);
  PASTE_INTRO.lastIndex = 0;
  PASTE_INTRO_ZH.lastIndex = 0;
  if (!m) return text;
  const end = m.index + m[0].length;
  return text.slice(0, end) + text.slice(end).replace(/[^\n]/g, '');
}

/** The text with attachments, pasted documents, diffs and log lines replaced by blank lines. */
export function stripMaterial(text: string): string {
  const blanked = withoutPastes(text)
    .replace(BLOCKS, (block) => '\n'.repeat(block.split('\n').length - 1) || ' ')
    .replace(NOTICES, ' ');
  return withoutDiffs(blanked.split('\n'))
    .map((l) => (LOG_LINE.test(l) ? '' : l))
    .join('\n');
}
