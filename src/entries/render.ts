/**
 * Canonical Markdown for an entry: one list item a field, a multi-line value as indented continuation
 * lines, so that parse(render(e)) gives e back and a hand edit of one field never breaks another.
 * A value line that would read as a list item or a code fence is joined to the line before it: it
 * would otherwise become a field of its own, or swallow the entries after it.
 */
import type { Entry, Field } from './model.js';

export function oneLine(value: string): string {
  return value.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

const NOT_A_CONTINUATION = /^(?:[-*+](?:[ \t]|$)|-|`{3}|~{3})/;

/** The value's lines, trimmed, blank ones dropped, each safe to write as a continuation line. */
function valueLines(value: string): string[] {
  const out: string[] = [];
  for (const line of value.split(/\r\n|[\r\n]/).map((l) => l.replace(/^[ \t]+|[ \t]+$/g, ''))) {
    if (!line) continue;
    if (out.length && NOT_A_CONTINUATION.test(line)) out[out.length - 1] += ` ${line}`;
    else out.push(line);
  }
  return out;
}

function renderField(f: Field, indent: string): string {
  const [first, ...rest] = valueLines(f.value);
  const head = `${indent}- ${f.key}:${first ? ' ' + first : ''}\n`;
  const more = rest.map((l) => `${indent}  ${l}\n`).join('');
  return head + more + (f.children ?? []).map((c) => renderField(c, indent + '  ')).join('');
}

export function renderEntry(entry: Entry): string {
  return `## ${entry.kind}: ${oneLine(entry.title)}\n` + entry.fields.map((f) => renderField(f, '')).join('');
}
