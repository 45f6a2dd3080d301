/**
 * Compiled reply validators kept on disk, so that a schema is compiled once for all the workers of a run and for the
 * runs after it, instead of once in every worker of every run (compiling the reply schemas cost each worker about 1.5 s
 * of CPU on two cores; docs/performance.md, item 18).
 *
 * A validator is stored as ajv standalone code (plain JavaScript, ajv's own output) in a file named after a hash of the
 * JSON Schema, ajv's version and the options the code was built with: a changed schema or a changed ajv never meets an
 * old validator. A file is written whole (under a temporary name, then renamed), so a worker never reads another's
 * half-written file; a file that does not load is compiled and written again. When the folder cannot be made or
 * written, validators are compiled in memory as before: the cache only saves time, never changes a result.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type AjvCore from 'ajv/dist/core.js';
import type { ValidateFunction } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import writeFileAtomic from 'write-file-atomic';

const require = createRequire(import.meta.url);
// The CommonJS module's default export arrives as a member under Node's ESM interop.
const standaloneCode = (standaloneModule as unknown as { default: typeof standaloneModule.default }).default;
const AJV_VERSION = (require('ajv/package.json') as { version: string }).version;

/** Where validators are kept unless told otherwise: the project's `node_modules/.cache`, as other tools keep theirs. */
export const DEFAULT_VALIDATOR_CACHE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'node_modules',
  '.cache',
  'identity-conformance',
  'validators',
);

/**
 * Hands out validators for JSON Schemas, loading each from `dir` when a worker or an earlier run compiled it already,
 * compiling (and storing) it otherwise.
 *
 * `ajv` must be built with `code: { source: true }` (standalone code needs the source); `optionsKey` names the options
 * that shape the generated code (part of each file's name).
 * @throws only what `ajv.compile` throws for a schema it rejects.
 */
export class ValidatorCache {
  private writable: boolean;

  constructor(
    private readonly ajv: AjvCore.default,
    private readonly dir: string | undefined,
    private readonly optionsKey: string,
  ) {
    this.writable = dir !== undefined && ensureDir(dir);
  }

  /** The validator of `schema`: from the folder when stored there, compiled otherwise. */
  validator(schema: Record<string, unknown>): ValidateFunction {
    if (!this.dir) return this.ajv.compile(schema);
    const file = join(
      this.dir,
      `${createHash('sha256')
        .update(`${AJV_VERSION}\n${this.optionsKey}\n${JSON.stringify(schema)}`)
        .digest('hex')
        .slice(0, 40)}.cjs`,
    );
    const stored = load(file);
    if (stored) return stored;
    const compiled = this.ajv.compile(schema);
    if (this.writable) this.writable = store(file, standaloneCode(this.ajv, compiled));
    return compiled;
  }
}

function ensureDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    return true;
  } catch {
    return false;
  }
}

/** The validator a stored file exports, or undefined when there is none or it does not load. */
function load(file: string): ValidateFunction | undefined {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const module = { exports: {} as { default?: unknown } };
    // Standalone code is a CommonJS module body; its only imports are ajv's runtime helpers and ajv-formats.
    new Function('require', 'module', 'exports', source)(require, module, module.exports);
    const validate = module.exports.default ?? module.exports;
    return typeof validate === 'function' ? (validate as ValidateFunction) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a file whole (a temporary file renamed into place); false when the folder turned out not to be writable. */
function store(file: string, source: string): boolean {
  try {
    writeFileAtomic.sync(file, source, { fsync: false });
    return true;
  } catch {
    return false;
  }
}
