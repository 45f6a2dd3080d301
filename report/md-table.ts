/**
 * GitHub-flavoured Markdown tables (markdown-table), with every cell made safe for a table: a
 * pipe is escaped and a line break becomes a space, so run text can never break the table.
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
