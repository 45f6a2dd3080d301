/**
 * Loads a TypeScript command module compiled into one JavaScript file, kept between runs, instead of through tsx's
 * loader, which compiles and resolves every module in a thread of its own each time: step 1 of `npm run conformance`
 * refusing a bad setting took about 2.1 s of CPU that way and about 1.3 s this way (docs/performance.md, item 39).
 *
 * The compiled file (esbuild, every project module in one file, packages left to Node's resolution) lives in
 * node_modules/.cache/identity-conformance/compiled/ beside a list of the files it was made from, with their sizes and
 * modification times: it is used only while every one of them is as it was, and made again otherwise (about 0.3 s).
 * `import.meta.url`, `import.meta.dirname` and `import.meta.filename` keep naming each module's own source file. Where
 * the cache cannot be written, or esbuild cannot compile the module, the module is loaded through tsx, as before: the
 * command behaves the same, only slower.
 *
 * As a command: `node run/cli/compiled.mjs <module.ts> [arguments...]` runs the module as if it had been started itself
 * (`process.argv` without this file). Stack traces name the compiled file, where a comment before each module's code
 * names its source; `NODE_OPTIONS=--enable-source-maps` names the sources themselves (a source map is written beside
 * the file; reading it at every start would cost about 0.15 s of CPU). Plain JavaScript: it runs before any TypeScript
 * loader is registered.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import writeFileAtomic from 'write-file-atomic';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** Where compiled modules are kept. */
export const COMPILED_DIR = join(ROOT, 'node_modules', '.cache', 'identity-conformance', 'compiled');
/** Changes whenever the way a module is compiled changes here, so that older compiled files are not used. */
const RECIPE = 1;

/** `import.meta.*` in a project module, which would name the compiled file once bundled. */
const IMPORT_META = /\bimport\.meta\.(url|dirname|filename)\b/g;

/** The list of the files a compiled module was made from: path relative to `root` -> [size, mtimeMs]. */
function fingerprint(root, paths) {
  const files = {};
  for (const p of paths) {
    const s = statSync(join(root, p));
    files[p] = [s.size, s.mtimeMs];
  }
  return files;
}

/** True when the compiled module's inputs are all as they were when it was made. */
function fresh(root, listPath, esbuildVersion) {
  let list;
  try {
    list = JSON.parse(readFileSync(listPath, 'utf8'));
  } catch {
    return false;
  }
  if (list.recipe !== RECIPE || list.esbuild !== esbuildVersion || list.node !== process.version) return false;
  try {
    const now = fingerprint(root, Object.keys(list.files));
    return Object.entries(list.files).every(([p, [size, mtime]]) => now[p][0] === size && now[p][1] === mtime);
  } catch {
    return false; // a file it was made from is gone
  }
}

/** Writes `text` to `path` through a temporary file, so that a run reading it never sees half of it. */
const publish = (path, text) => writeFileAtomic.sync(path, text, { fsync: false });

/** Compiles `entry` (absolute path, under `root`) into `out`, with its list of inputs at `listPath`. */
async function compile(esbuild, root, entry, out, listPath) {
  const keepImportMeta = {
    name: 'keep-import-meta',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
        if (args.path.includes(`${join('node_modules', '')}`)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        const values = { url: pathToFileURL(args.path).href, dirname: dirname(args.path), filename: args.path };
        return { contents: source.replace(IMPORT_META, (_, member) => JSON.stringify(values[member])), loader: 'ts' };
      });
    },
  };
  const started = Date.now();
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    write: false,
    outfile: out,
    absWorkingDir: root,
    logLevel: 'silent',
    plugins: [keepImportMeta],
  });
  // A warning (an import esbuild could not follow) means the compiled module may not behave as the source.
  if (result.warnings.length) throw new Error(result.warnings[0].text);
  const inputs = Object.keys(result.metafile.inputs).map((p) => relative(root, resolve(root, p)));
  const tsconfig = existsSync(join(root, 'tsconfig.json')) ? ['tsconfig.json'] : [];
  const files = fingerprint(root, [...inputs, ...tsconfig]);
  for (const file of result.outputFiles) publish(file.path, file.contents);
  // A source saved while esbuild read the sources may not be in the file: it is not listed as made from that version,
  // so the next start compiles it again.
  const ended = Date.now();
  if (Object.values(files).some(([, mtime]) => mtime >= started && mtime <= ended)) return;
  publish(listPath, JSON.stringify({ recipe: RECIPE, esbuild: esbuild.version, node: process.version, files }));
}

/**
 * The compiled file of `entry` (a path to a TypeScript module under `root`), made, or made again when a file it was
 * made from changed.
 * @returns its URL to import (with a version, so that a module made again within a process is loaded anew) and whether
 *   it was made now
 * @throws when esbuild is missing, cannot compile the module, or the folder cannot be written
 */
export async function compiledModule(entry, { root = ROOT, dir = COMPILED_DIR } = {}) {
  const source = resolve(entry);
  const esbuild = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  // Named after the source's absolute path: checkouts that share one node_modules (a symlink, a worktree) keep compiled
  // files of their own, each with the paths of its own sources inside.
  const key = createHash('sha256').update(source).digest('hex').slice(0, 12);
  const out = join(dir, `${basename(source).replace(/\.[cm]?ts$/, '')}-${key}.mjs`);
  const listPath = `${out}.inputs.json`;
  const made = !fresh(root, listPath, esbuild.version);
  if (made) await compile(esbuild, root, source, out, listPath);
  return { href: `${pathToFileURL(out).href}?made=${statSync(out).mtimeMs}`, made };
}

/**
 * Loads `entry` (a path to a project TypeScript module) compiled, or through tsx when it cannot be compiled or kept
 * (options as compiledModule's).
 * @returns the module's namespace
 */
export async function importCompiled(entry, options = {}) {
  let compiled;
  try {
    compiled = (await compiledModule(entry, options)).href;
  } catch {
    // Loaded as `node --import tsx` loads it.
    const { register } = await import('tsx/esm/api');
    register();
    return import(pathToFileURL(resolve(entry)).href);
  }
  // Outside the try: an error of the module itself is the command's, not a reason to load it twice.
  return import(compiled);
}

/** True when this file is the script Node was started with, by whatever path (a symlink included). */
function startedAsCommand() {
  try {
    return Boolean(process.argv[1]) && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (startedAsCommand()) {
  const entry = process.argv[2];
  if (!entry) {
    process.stderr.write('usage: node run/cli/compiled.mjs <module.ts> [arguments...]\n');
    process.exit(2);
  }
  process.argv.splice(1, 1);
  await importCompiled(entry);
}
