/**
 * Greps every byte a run wrote for marker strings: every file under a folder (recursively;
 * gzip'ed files are decompressed first) plus captured console text. Used by the data-safety
 * self-tests to prove foreign identity content and secrets never reach a report or the console.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface MarkerHit {
  where: string;
  marker: string;
  count: number;
}

/** Every file under `dir`, recursively (symbolic links are not followed). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isSymbolicLink()) return [];
    return d.isDirectory() ? filesUnder(p) : statSync(p).isFile() ? [p] : [];
  });
}

/** A file's text; gzip'ed content (by its magic bytes, whatever the name) is decompressed. */
export function fileText(file: string): string {
  const raw = readFileSync(file);
  const gz = raw.length > 2 && raw[0] === 0x1f && raw[1] === 0x8b;
  return (gz ? gunzipSync(raw) : raw).toString('utf8');
}

const occurrences = (text: string, s: string) => (s ? text.split(s).length - 1 : 0);

/** Hits of each marker in each text (files under `dir` and the named extra texts), one entry per (place, marker) with a count. */
export function markerHits(dir: string, markers: string[], extra: Record<string, string> = {}): MarkerHit[] {
  const texts = [
    ...filesUnder(dir).map((f) => ({ where: f, text: fileText(f) })),
    ...Object.entries(extra).map(([where, text]) => ({ where, text })),
  ];
  return texts.flatMap(({ where, text }) =>
    markers.map((marker) => ({ where, marker, count: occurrences(text, marker) })).filter((h) => h.count > 0),
  );
}

/** Total hits per marker kind, e.g. { names: 120, ssns: 4 }. */
export function hitsByKind(hits: MarkerHit[], kinds: Record<string, string[]>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(kinds).map(([kind, list]) => [
      kind,
      hits.filter((h) => list.includes(h.marker)).reduce((n, h) => n + h.count, 0),
    ]),
  );
}
