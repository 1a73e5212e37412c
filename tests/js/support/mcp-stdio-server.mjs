// A local MCP server for the tests: the official SDK's McpServer over StdioServerTransport.
// `--fail` exits at once with a message on stderr; MCP_TEST_GREETING comes from the config's
// `environment`.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { z } from "zod"

if (process.argv.includes("--fail")) {
  console.error("cannot start: missing database")
  process.exit(3)
}

const text = (t) => ({ content: [{ type: "text", text: t }] })
const mcp = new McpServer({ name: "stdio-test", version: "1.0.0" })
mcp.registerTool("greet", { description: "Greets someone", inputSchema: { name: z.string() } }, async ({ name }) =>
  text(`${process.env.MCP_TEST_GREETING ?? "Hello"}, ${name}!`),
)
mcp.registerTool("slow", { description: "Answers after ms", inputSchema: { ms: z.number() } }, async ({ ms }) => {
  await new Promise((resolve) => setTimeout(resolve, ms))
  return text(`slept ${ms}`)
})
mcp.registerTool("cwd", { description: "The working directory" }, async () => text(process.cwd()))
mcp.registerTool("pid", { description: "This process's id" }, async () => text(String(process.pid)))
mcp.registerTool("ask_name", { description: "Asks for a name (form elicitation)" }, async (extra) => {
  const result = await mcp.server.elicitInput(
    { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
    { relatedRequestId: extra.requestId },
  )
  return text(result.action === "accept" ? `hi ${result.content.name}` : result.action)
})
await mcp.connect(new StdioServerTransport())
