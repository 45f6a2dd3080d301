/**
 * The run's settings, built once per process and read through runSettings() by everything that starts, runs or tears
 * down a run: the command's first step (run/cli/conformance-prepare.ts), vitest's configuration and global setup (one
 * process), the command's last step after an interrupt (run/cli/conformance-finish.ts) and npm run cleanup. The
 * settings themselves are read from the environment by harness/config.ts only; the deployment profile from its file by
 * harness/profile.ts; this module puts them together once, with what follows from them (the target, the profile as
 * resolved for it, the removal options, the run ID).
 *
 * The processes of one run hand values over in the environment (the run ID, the seed, and the vitest configuration's
 * plan, vitestPlan below: harness/handoff.ts declares every hand-off), so each builds the same plan.
 */
import { type Settings, filesAtOnceFor, loadSettings } from '../harness/config.js';
import { type Profile, ProfileSchema, loadProfile, resolveProfile } from '../harness/profile.js';
import { newRunId } from '../harness/run.js';
import { mergePatches, variantsPatch } from '../reference/variants/profile-patch.js';
import { VariantSet } from '../reference/variants/registry.js';
import { referenceSettings } from '../reference/settings.js';
import type { ProfilePatch } from '../reference/variants/types.js';
import { HANDOFF, type VitestPlan } from '../harness/handoff.js';
import { isolationGroups } from './vitest-plan.js';

export interface RunSettings {
  settings: Settings;
  /** The deployment profile as the user wrote it (CONFORMANCE_PROFILE; defaults where absent). */
  profile: Profile;
  /** True when no service URL is set: the run starts the embedded reference. */
  embedded: boolean;
  /**
   * The profile the checks run under: against the embedded reference with REFERENCE_VARIANTS, the variants' settings
   * over the user's (what a user of such a deployment would set), with the defaults of the target resolved.
   */
  resolvedProfile(): Profile;
  /**
   * The run ID: the one handed over (CONFORMANCE_RUN_ID), else CONFORMANCE_RUN_ID's setting, else a new one, handed on.
   */
  runId(): string;
  /** How the run's records are removed (teardown, early removal, cleanup after an interrupt, npm run cleanup). */
  removal: { timeoutMs: number; maxInFlight: number; retryBudgetMs: number; ratePerSecond?: number };
}

let built: RunSettings | undefined;

/**
 * The run's settings (built on the first call of the process).
 * @throws SettingsError naming the setting when one is wrong (harness/config.ts), or the profile error
 */
export function runSettings(): RunSettings {
  if (built) return built;
  const settings = loadSettings();
  const profile = loadProfile(settings.profilePath);
  const embedded = Object.keys(settings.configured).length === 0;
  let resolved: Profile | undefined;
  built = {
    settings,
    profile,
    embedded,
    resolvedProfile: () => (resolved ??= resolveProfile(withVariantSettings(profile, embedded), embedded)),
    // Set once in the process, so vitest's configuration and its global setup name the same run.
    runId: () => HANDOFF.runId.read() ?? handOnRunId(settings.runId ?? newRunId()),
    removal: {
      timeoutMs: settings.timeoutMs,
      maxInFlight: settings.maxInFlight,
      retryBudgetMs: settings.retryBudgetMs,
      ...(settings.rateLimit ? { ratePerSecond: settings.rateLimit } : {}),
    },
  };
  return built;
}

/** Sets the run ID in this process's environment, for the modules and children that read it after. */
function handOnRunId(runId: string): string {
  HANDOFF.runId.write(process.env, runId);
  return runId;
}

/**
 * The user's profile with the settings of the embedded reference's variants (REFERENCE_VARIANTS, named or drawn) over
 * it.
 */
function withVariantSettings(profile: Profile, embedded: boolean): Profile {
  if (!embedded) return profile;
  const patch = variantsPatch(new VariantSet(referenceSettings(process.env).variants).active);
  return Object.keys(patch).length
    ? ProfileSchema.parse(mergePatches([profile as unknown as ProfilePatch, patch]))
    : profile;
}

/**
 * What the vitest configuration needs of this run (run/vitest-plan.ts), for the run `runId`, with the
 * preflight's round trip (ms) when there was one (it sets the scenario files side by side).
 * @throws SettingsError as runSettings()
 */
export function vitestPlan(runId: string, roundTripMs?: number): VitestPlan {
  const { settings } = runSettings();
  return {
    runId,
    reportDir: settings.reportDir,
    requirementUrl: settings.requirementUrl,
    timeoutMs: settings.timeoutMs,
    filesAtOnce: filesAtOnceFor(settings, roundTripMs),
    isolationGroups: isolationGroups(
      Object.fromEntries(
        Object.values(settings.configured).map((t) => [t.service, `${t.baseUrl.replace(/\/+$/, '')}${t.servicePath}`]),
      ),
    ),
  };
}
