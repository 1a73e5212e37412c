// Type tests of serving a toolkit (SPEC §7C): handler, serve, buildMcpServer, exposedMcpTools.
import {
  buildMcpServer, createToolkit, defineTool, exposedMcpTools, McpServer,
  type HandlerOptions, type MCPServeConfig, type OnCallEvent, type ServeHandle,
} from "toolnexus-wasm"
import * as lean from "toolnexus-wasm/core"

const echo = defineTool({ name: "echo", description: "echo", run: () => "x" })

async function serving(): Promise<void> {
  const toolkit = await createToolkit({ extraTools: [echo], mcpConfig: { mcpServer: { name: "gw" } } })
  const profile: MCPServeConfig = { name: "gw", version: "1.0.0", tools: ["echo"] }
  const options: HandlerOptions = { mcp: profile, onCall: (e: OnCallEvent) => console.log(e.name, e.source, e.ms, e.isError) }
  const handler: (request: Request) => Promise<Response> = toolkit.handler(options)
  const response: Response = await handler(new Request("http://x.test/mcp"))
  const srv: ServeHandle = await toolkit.serve("127.0.0.1:0", { mcp: {} })
  const url: string = srv.url
  await srv.stop()
  await srv.close()
  // @ts-expect-error addr is a string
  await toolkit.serve(8080)
  // @ts-expect-error mcp.tools is a list of names
  toolkit.handler({ mcp: { tools: "echo" } })

  const server: McpServer = buildMcpServer(exposedMcpTools(toolkit.tools(), profile), profile, async (e) => void e.ms)
  const answered: Response = await server.handle(new Request("http://x.test/mcp", { method: "POST" }))
  const reply = await server.handleMessage({ jsonrpc: "2.0", id: 1, method: "ping" })
  const same: typeof echo[] = exposedMcpTools([echo])
  await server.close()
  void [response, url, answered, reply, same]

  const leanKit = await lean.createToolkit({})
  // The lean build declares them (and refuses them at run time).
  const refused: (request: Request) => Promise<Response> = leanKit.handler()
  void refused
}
void serving
