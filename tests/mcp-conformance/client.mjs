#!/usr/bin/env node
// The client command the MCP conformance suite runs (`conformance client --command ...`): it
// appends the scenario server's URL as the last argument and names the scenario in
// MCP_CONFORMANCE_SCENARIO. This drives the package as a user would: a toolkit over the one
// server, its tools listed, each called, elicitations answered through the public `waitFor`
// (accepting with no fields of its own, so the schema's defaults fill the content).
import { createToolkit } from "../../pkg/node.mjs"

const url = process.argv.at(-1)
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "(none)"
if (!url || !/^https?:\/\//.test(url)) {
  console.error(`usage: client.mjs <server-url> (got ${url ?? "nothing"})`)
  process.exit(2)
}

// Arguments a scenario's tools need; a tool not named here is called with none.
const ARGUMENTS = { add_numbers: { a: 2, b: 3 } }

const toolkit = await createToolkit({
  builtins: false,
  mcpConfig: { mcpServers: { conformance: { url, timeout: 20_000 } } },
  waitFor: async (request) => {
    console.log(`[${scenario}] waitFor ${request.kind}: ${request.prompt}`)
    return { id: request.id, ok: true, data: {} }
  },
})
let failed = false
try {
  const status = toolkit.mcpStatus().conformance
  if (status !== "connected") {
    console.error(`[${scenario}] server ${status}: ${toolkit.mcpErrors().conformance ?? ""}`)
    failed = true
  }
  for (const tool of toolkit.tools()) {
    const original = tool.name.replace(/^conformance_/, "")
    const result = await toolkit.execute(tool.name, ARGUMENTS[original] ?? {})
    console.log(`[${scenario}] ${tool.name} → ${JSON.stringify(result)}`)
    if (result.isError) failed = true
  }
} finally {
  await toolkit.close()
}
process.exit(failed ? 1 : 0)
