// Type tests of serving a toolkit (SPEC §7B, §7C): handler, serve, buildMcpServer,
// exposedMcpTools, the A2A profile, its task stores and buildAgentCard.
import {
  buildAgentCard, buildMcpServer, createClient, createToolkit, defineTool, exposedMcpTools, FileTaskStore, IndexedDbTaskStore, InMemoryTaskStore, McpServer, resolveStore,
  type A2AConfig, type A2ATask, type AgentCard, type HandlerOptions, type MCPServeConfig, type OnCallEvent, type OnTaskEvent, type ServeHandle, type TaskStore,
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

  const client = createClient({ baseUrl: "http://127.0.0.1:1/v1", style: "openai", model: "m" })
  const store: TaskStore = resolveStore("file:/tmp/tasks")
  const stores: TaskStore[] = [new InMemoryTaskStore(), new FileTaskStore("/tmp/tasks"), store, resolveStore()]
  const a2a: A2AConfig = { name: "desk", description: "d", version: "1", provider: { organization: "o", url: "u" }, skills: ["review"], store: "memory" }
  const both = toolkit.handler({ client, a2a, mcp: {}, onTask: (e: OnTaskEvent) => console.log(e.id, e.state, e.task.status.state, e.result?.text) })
  const task: A2ATask | undefined = await stores[0].get("t1")
  await stores[0].save({ id: "t1", status: { state: "completed" }, artifacts: [{ parts: [{ kind: "text", text: "hi" }] }] })
  const card: AgentCard = buildAgentCard(a2a, [{ name: "review", description: "Reviews" }], "http://x.test/")
  const endpoint: string = card.supportedInterfaces[0].url
  // @ts-expect-error a2a.skills is a list of names
  toolkit.handler({ client, a2a: { skills: "review" } })
  // @ts-expect-error a store has get and save
  toolkit.handler({ client, a2a: { store: { get: async () => undefined } } })
  void [both, task, endpoint]

  // The browser's task store, the body cap and the lease.
  const idb = new IndexedDbTaskStore("desk", null)
  const dbName: string = idb.dbName
  idb.close()
  const scaled: A2AConfig = { store: idb, maxBodyBytes: 65536, lease: 30000, owner: "worker-a" }
  const fromSelector: TaskStore = resolveStore("indexeddb:desk")
  const leasedTask: A2ATask = { id: "t2", status: { state: "working" }, lease: { owner: "worker-a", expiresAt: "2026-12-04T00:00:00.000Z" } }
  // @ts-expect-error maxBodyBytes is a number of bytes
  toolkit.handler({ client, a2a: { maxBodyBytes: "1mb" } })
  // @ts-expect-error a lease names its owner
  const noOwner: A2ATask = { id: "t3", status: { state: "working" }, lease: { expiresAt: "x" } }
  void [dbName, scaled, fromSelector, leasedTask, noOwner]

  const leanKit = await lean.createToolkit({})
  // The lean build declares them (and refuses them at run time).
  const refused: (request: Request) => Promise<Response> = leanKit.handler()
  void refused
}
void serving
