/**
 * Canonical Markdown for an entry. Values are kept on one line so that every field is one list item
 * and a hand edit of one field never breaks another; parse(render(e)) gives e back.
 */
import type { Entry, Field } from './model.js';

export function oneLine(value: string): string {
  return value.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

function renderField(f: Field, indent: string): string {
  const head = `${indent}- ${f.key}:${f.value ? ' ' + oneLine(f.value) : ''}\n`;
  return head + (f.children ?? []).map((c) => renderField(c, indent + '  ')).join('');
}

export function renderEntry(entry: Entry): string {
  return `## ${entry.kind}: ${oneLine(entry.title)}\n` + entry.fields.map((f) => renderField(f, '')).join('');
}
