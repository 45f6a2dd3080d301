/**
 * `npm run evidence:verify -- <dir>`: verifies an evidence bundle (report/evidence/verify.ts): digests, completeness,
 * manifest, and a new scan for secrets (those of the current settings too, when they load) and other sources' identity
 * data; prints the bundle's verdict. Exit codes: 0 a valid bundle of a run that passed (and was certified, when the
 * bundle was made with the certification profile); 1 a valid bundle whose run failed or was not certified; an invalid
 * bundle (changed, incomplete, or holding a secret or foreign data); 2 bad arguments.
 */
import { loadSettings } from '../../harness/config.js';
import { verificationLines, verifyBundle } from '../../report/evidence/verify.js';
import { command, parseArguments } from '../command.js';
import { settingsSecrets } from '../evidence.js';

const program = command({
  name: 'evidence:verify',
  summary:
    'Verifies an evidence bundle (npm run conformance -- --evidence <dir>): SHA-256 digests, completeness, ' +
    "manifest, no secret and no other source's identity data; prints its verdict.",
  settings: ['ORG_*, PERSON_*, PROVIDER_*   credentials of the current settings are looked for too'],
  exitCodes: [
    [0, 'valid bundle; its run passed (and was certified, with the certification profile)'],
    [1, 'valid bundle; its run failed or was not certified'],
    [2, 'bad arguments'],
    [3, 'invalid bundle: a file changed, missing or added, a bad manifest, a secret or foreign identity data'],
  ],
  examples: ['npm run evidence:verify -- evidence/acme-4.2'],
}).argument('<dir>', 'the bundle folder');
parseArguments(program);
const [dir] = program.args as [string];

let secrets: string[] = [];
try {
  secrets = settingsSecrets(loadSettings());
} catch {
  // settings that do not load name no credential to look for; the patterns still apply
}
const v = verifyBundle(dir, secrets);
for (const line of verificationLines(dir, v)) console.log(line);
process.exitCode = !v.valid ? 3 : v.accepted ? 0 : 1;
