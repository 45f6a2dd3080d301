/**
 * V8 flags for the vitest processes `npm run conformance` starts (the run and its check count).
 * V8 flags given to a process hold for every worker thread in it, and each thread's young
 * generation may otherwise grow to about 34 MB: with four to six test workers that is up to
 * 200 MB a run keeps for garbage that dies young. A 4 MB semi-space costs about 1 % more CPU in
 * more frequent scavenges and lowers the vitest process's peak by about 80 MB
 * (docs/performance.md, item 20). Worker threads ignore heap flags of their own `execArgv`, and
 * vitest's threads pool sets no `resourceLimits`, so this is the one place to say it.
 */
export const VITEST_NODE_FLAGS = ['--max-semi-space-size=4'];
