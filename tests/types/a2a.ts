// Type tests of A2A outbound (SPEC §7A): `agent`, `parseAgentsConfig`, `agentTools`, the
// toolkit's `agents` option and config block, `addAgent` (resolving to the toolkit) and the
// status readers; the lean build's toolkit has the same methods (it rejects at run time).
import { agent, agentTools, createToolkit, parseAgentsConfig, type Agent, type AgentStatus, type AgentsConfig, type Tool, type Toolkit } from "toolnexus-wasm"
import * as core from "toolnexus-wasm/core"

const desk: Agent = agent({ card: "http://127.0.0.1:1/.well-known/agent-card.json", headers: { Authorization: "Bearer ${TOKEN}" }, timeout: 5_000, pollEvery: 250 })
const block: AgentsConfig = { desk: { card: desk.card, disabled: false } }
const parsed: Agent[] = parseAgentsConfig(block)
const toolkit: Toolkit = await createToolkit({ agents: [desk, ...parsed], mcpConfig: { agents: block } })
const same: Toolkit = await toolkit.addAgent(desk.card, { pollEvery: 100, env: { TOKEN: "t" } })
const status: Record<string, AgentStatus> = same.agentStatus()
const reasons: Record<string, string> = toolkit.agentErrors()
const tools: Tool[] = await agentTools(desk)
console.log(status, reasons, tools.length)
// @ts-expect-error a card is a URL string
agent({ card: 5 })
// @ts-expect-error agents is a list of descriptors
await createToolkit({ agents: desk })
const lean = await core.createToolkit({})
const leanStatus: Record<string, core.AgentStatus> = lean.agentStatus()
console.log(leanStatus)
// @ts-expect-error the lean build has no agent()
core.agent
