/** A missing or malformed setting (harness/config.ts), naming it and what is expected; and what settings are read from. */

export class SettingsError extends Error {
  constructor(
    readonly setting: string,
    readonly expected: string,
    readonly got?: string,
  ) {
    super(`Setting ${setting}: expected ${expected}${got === undefined ? '' : `, got ${JSON.stringify(got)}`}`);
    this.name = 'SettingsError';
  }
}

/** The variables settings are read from: the environment with `.env` underneath (harness/config.ts loadEnv). */
export type Env = Record<string, string | undefined>;
