/**
 * Holds a scenario file's list of the requirements a shared module verifies for its service to the IDs the module
 * actually cites.
 * @throws Error naming both lists when they differ (a stale list at the call site)
 */
export function declared(service: string, what: string, verifies: readonly string[], actual: readonly string[]): void {
  const a = [...new Set(verifies)].sort();
  const b = [...new Set(actual)].sort();
  if (a.join() !== b.join())
    throw new Error(
      `${service} ${what} checks: the scenario file declares they verify [${a.join(', ')}], but they verify ` +
        `[${b.join(', ')}] (the roles of specs/${service}/requirements.ts)`,
    );
}
