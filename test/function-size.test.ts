/**
 * Size discipline (the developers' guide, Style: functions under 80 lines): no function of the project's own sources
 * (`.ts` and `.mjs` outside `test/` and `*.test.ts`) spans more than 80 lines, unless it is a data table (its body is
 * an object or array literal, or returns one and nothing else). The functions longer than that today are listed in
 * LONG with their length: a listed one may only shrink, and one brought under the limit must leave the list, so the
 * list can only get shorter.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const LIMIT = 80;

/** The functions over the limit today (`file:name` → lines), to be split where a seam is found. */
const LONG: Record<string, number> = {};

/** The project's own source files, as git lists them. */
function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', '*.ts', '*.mjs'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.startsWith('test/') && !f.endsWith('.test.ts'));
}

const literal = (e: ts.Expression | undefined): boolean => {
  while (e && (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e)))
    e = e.expression;
  return e !== undefined && (ts.isObjectLiteralExpression(e) || ts.isArrayLiteralExpression(e));
};

/** A data table: a function whose body is a literal, or returns one and does nothing else. */
function isTable(body: ts.ConciseBody): boolean {
  if (!ts.isBlock(body)) return literal(body);
  const [only, ...rest] = body.statements;
  return !rest.length && only !== undefined && ts.isReturnStatement(only) && literal(only.expression);
}

function nameOf(n: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string {
  if (n.name) return n.name.getText(sf);
  const p = n.parent;
  if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p)) return p.name.getText(sf);
  if (ts.isCallExpression(p)) return `callback of ${p.expression.getText(sf).slice(0, 40)}`;
  return 'anonymous';
}

/** Every function over the limit that is no data table, as `file:name` → lines. */
function longFunctions(): Record<string, number> {
  const found: Record<string, number> = {};
  for (const file of sourceFiles()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const kind = file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
    const visit = (n: ts.Node): void => {
      if (ts.isFunctionLike(n) && 'body' in n && n.body) {
        const fn = n as ts.FunctionLikeDeclaration;
        const line = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
        const lines = line(fn.end) - line(fn.getStart(sf)) + 1;
        if (lines > LIMIT && !isTable(fn.body!)) {
          const key = `${file}:${nameOf(fn, sf)}`;
          found[key] = Math.max(found[key] ?? 0, lines);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

describe('size discipline', () => {
  const found = longFunctions();

  it(`no new function over ${LIMIT} lines but data tables`, () => {
    const added = Object.keys(found).filter((k) => !(k in LONG));
    expect(added, 'split it where a seam exists (a data table is exempt)').toEqual([]);
  });

  it('the long functions listed only shrink, and leave the list once under the limit', () => {
    for (const [key, lines] of Object.entries(LONG)) {
      expect(found[key], `${key} is under ${LIMIT} lines now (or gone): remove it from LONG`).toBeDefined();
      expect(found[key]!, `${key} grew`).toBeLessThanOrEqual(lines);
    }
  });

  it('tells a data table from a function that computes', () => {
    const fn = (src: string) => {
      const sf = ts.createSourceFile('x.ts', src, ts.ScriptTarget.Latest, true);
      return isTable((sf.statements[0] as ts.FunctionDeclaration).body!);
    };
    expect(fn('function t() { return { a: 1, b: [2] }; }')).toBe(true);
    expect(fn('function t() { return [1, 2] as const; }')).toBe(true);
    expect(fn('function t() { const a = 1; return { a }; }')).toBe(false);
    expect(fn('function t() { return f(); }')).toBe(false);
  });
});
