/**
 * Run text made safe inside Markdown: GitHub-flavoured tables (markdown-table), where a pipe is escaped and a line
 * break becomes a space, so run text can never break the table; and code fences, which grow a tick when the text holds
 * a fence of its own.
 */
import { markdownTable } from 'markdown-table';

/** Escapes one table cell. */
export const mdCell = (value: unknown): string =>
  String(value ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ');

/** A table as Markdown lines (no trailing newline); cells are escaped here. */
export function mdTable(head: string[], rows: unknown[][]): string {
  return markdownTable(
    [head, ...rows].map((r) => r.map(mdCell)),
    { alignDelimiters: false },
  );
}

/**
 * `text` in a code fence (info string `lang`); four ticks when the text holds three, so it cannot close the fence
 * early.
 */
export const mdFence = (text: string, lang = '') => {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}${lang}\n${text}\n${ticks}`;
};
