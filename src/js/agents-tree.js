// The sub-agent runtime's part of the `agents` namespace (SPEC §7D), the full build's only:
// `AgentRuntime`, `Handle`, `isVerbError`, `systemClock` (agents-runtime.js) and the Level-1
// `agent` (agent.js). The lean build leaves it out (its module has no runtime).
export * from "./agents-runtime.js"
export * from "./agent.js"
