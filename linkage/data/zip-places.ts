/**
 * Every ZIP code of the zipcodes package as { zip, city, state }, in the package's own order.
 *
 * The package is one 5 MB JavaScript module of object literals: compiling it holds about 90 MB for the life of the
 * process that loads it (more than the whole data set of 10,000 entities and its corruption logs), for a table of 2 MB.
 * It is therefore loaded in a short-lived Node process that prints the three members the data set uses, and only the
 * table comes back.
 * @throws Error when that process fails (its standard error in the message)
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

export interface ZipPlace {
  zip: string;
  city: string;
  state: string;
}

export function zipPlaces(): ZipPlace[] {
  const modulePath = createRequire(import.meta.url).resolve('zipcodes');
  const script = `const { codes } = require(${JSON.stringify(modulePath)});
process.stdout.write(JSON.stringify(Object.values(codes).map((z) => [z.zip, z.city, z.state])));`;
  const text = execFileSync(process.execPath, ['-e', script], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return (JSON.parse(text) as Array<[string, string, string]>).map(([zip, city, state]) => ({ zip, city, state }));
}
