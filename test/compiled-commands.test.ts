/**
 * run/cli/compiled.mjs: a command's TypeScript module compiled into one file is what the module
 * itself would be (each module's `import.meta` names its own source file), is reused while the
 * files it was made from are unchanged, is made again when one changes, is kept apart for two
 * checkouts that share one node_modules; the launcher runs its command when started through a
 * symlink; and where the module cannot be compiled or kept, it is loaded through tsx instead,
 * with the same exports.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript module without declarations
import { compiledModule } from '../run/cli/compiled.mjs';

const LAUNCHER_PATH = join(import.meta.dirname, '..', 'run', 'cli', 'compiled.mjs');
const LAUNCHER = pathToFileURL(LAUNCHER_PATH).href;

/** A project of two modules: the entry re-exports what its dependency knows of itself. */
function project(value: string) {
  const root = mkdtempSync(join(tmpdir(), 'compiled-'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(root, 'dep.ts'),
    `export const value: string = ${JSON.stringify(value)};\nexport const where = { url: import.meta.url, dirname: import.meta.dirname, filename: import.meta.filename };\n`,
  );
  writeFileSync(join(root, 'entry.ts'), `export { value, where } from './dep.js';\n`);
  return { root, dir: join(root, 'cache'), entry: join(root, 'entry.ts'), dep: join(root, 'dep.ts') };
}

type Compiled = { href: string; made: boolean };
type Loaded = { value: string; where: Record<string, string> };

/** Runs `code` (an ES module body) in a Node process of its own, with no loader but what it registers; returns what it printed as JSON. */
function inNode(code: string): unknown {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}
const load = (href: string) =>
  inNode(`const m = await import(${JSON.stringify(href)}); console.log(JSON.stringify({ ...m }));`) as Loaded;

describe('commands compiled into one file', () => {
  it("keeps each module's import.meta naming its own source file", async () => {
    const p = project('one');
    const { href } = (await compiledModule(p.entry, p)) as Compiled;
    const m = load(href);
    expect(m.value).toBe('one');
    expect(m.where).toEqual({ url: pathToFileURL(p.dep).href, dirname: p.root, filename: p.dep });
  });

  it('reuses the compiled file while its sources are unchanged, and makes it again when one changes', async () => {
    const p = project('one');
    const first = (await compiledModule(p.entry, p)) as Compiled;
    const again = (await compiledModule(p.entry, p)) as Compiled;
    expect([first.made, again.made]).toEqual([true, false]);
    expect(again.href).toBe(first.href);

    writeFileSync(p.dep, "export const value: string = 'two';\nexport const where = {};\n");
    // A later modification time whatever the file system's resolution.
    utimesSync(p.dep, new Date(), new Date(Date.now() + 5000));
    const changed = (await compiledModule(p.entry, p)) as Compiled;
    expect(changed.made).toBe(true);
    expect(load(changed.href).value).toBe('two');
  });

  it('keeps apart two checkouts that share one cache folder (one node_modules)', async () => {
    const [a, b] = [project('one'), project('two')];
    const shared = join(a.root, 'shared-cache');
    const first = (await compiledModule(a.entry, { root: a.root, dir: shared })) as Compiled;
    const other = (await compiledModule(b.entry, { root: b.root, dir: shared })) as Compiled;
    const again = (await compiledModule(a.entry, { root: a.root, dir: shared })) as Compiled;
    expect([first.made, other.made, again.made]).toEqual([true, true, false]);
    expect([load(again.href).value, load(other.href).value]).toEqual(['one', 'two']);
  });

  it('runs its command when started through a symlink (not a silent exit 0)', () => {
    const link = join(mkdtempSync(join(tmpdir(), 'compiled-link-')), 'compiled.mjs');
    symlinkSync(LAUNCHER_PATH, link);
    const r = spawnSync(
      process.execPath,
      [link, join(import.meta.dirname, '..', 'run', 'cli', 'reference.ts'), '--help'],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run reference/);
  });

  it('loads the module through tsx where the compiled file cannot be written', async () => {
    const p = project('three');
    const unwritable = join(p.dep, 'cache'); // a folder under a file
    await expect(compiledModule(p.entry, { root: p.root, dir: unwritable })).rejects.toThrow();
    const options = JSON.stringify({ root: p.root, dir: unwritable });
    const m = inNode(
      `const { importCompiled } = await import(${JSON.stringify(LAUNCHER)}); const m = await importCompiled(${JSON.stringify(p.entry)}, ${options}); console.log(JSON.stringify({ ...m }));`,
    ) as Loaded;
    expect(m.value).toBe('three');
    expect(m.where.url).toBe(pathToFileURL(p.dep).href);
  });
});
