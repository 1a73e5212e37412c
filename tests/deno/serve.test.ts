// toolkit.serve in Deno (Deno.serve), on the packed package (see run.sh): this package's own
// MCP client lists and calls the served tools over 127.0.0.1, a raw fetch sees the stateless
// transport's answers, a request aborted mid-call reaches the tool's signal, and a tool that
// suspends asks a client that declared elicitation (its answer streamed by Deno.serve).
import { createToolkit, defineTool, pending } from "toolnexus-wasm"

function equal(actual: unknown, expected: unknown) {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)]
  if (a !== e) throw new Error(`expected ${e}, got ${a}`)
}

Deno.test("toolkit.serve listens with Deno.serve; the served tools work and a cancelled call is aborted", async () => {
  let started = () => {}
  const running = new Promise<void>((resolve) => (started = resolve))
  let aborted = (_reason: string) => {}
  const stopped = new Promise<string>((resolve) => (aborted = resolve))
  const echo = defineTool({
    name: "echo",
    description: "echo back text",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    run: (args) => String(args.text),
  })
  const slow = defineTool({
    name: "slow",
    description: "waits for its signal",
    run: (_args, ctx) =>
      new Promise<string>((_resolve, reject) => {
        ctx.signal?.addEventListener("abort", () => {
          aborted(String(ctx.signal?.reason))
          reject(new Error("stopped"))
        })
        started()
      }),
  })
  const served = await createToolkit({ builtins: false, extraTools: [echo, slow] })
  const calls: string[] = []
  let slowReported = () => {}
  const reported = new Promise<void>((resolve) => (slowReported = resolve))
  const onCall = (e: { name: string; isError: boolean }) => {
    calls.push(`${e.name}:${e.isError}`)
    if (e.name === "slow") slowReported()
  }
  const srv = await served.serve("127.0.0.1:0", { mcp: { name: "deno-gw" }, onCall })
  try {
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(srv.url)) throw new Error(`url: ${srv.url}`)
    const consumer = await createToolkit({ builtins: false, mcpConfig: { mcpServers: { gw: { url: `${srv.url}/mcp` } } } })
    equal(consumer.mcpStatus(), { gw: "connected" })
    equal(consumer.tools().map((t) => t.name), ["gw_echo", "gw_slow"])
    const said = await consumer.execute("gw_echo", { text: "from deno" })
    equal([said.output, said.isError], ["from deno", false])
    await consumer.close()

    const get = await fetch(`${srv.url}/mcp`)
    await get.body?.cancel()
    equal([get.status, get.headers.get("allow")], [405, "POST"])
    const other = await fetch(`${srv.url}/elsewhere`)
    await other.body?.cancel()
    equal(other.status, 404)

    const controller = new AbortController()
    const call = fetch(`${srv.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", arguments: {} } }),
      signal: controller.signal,
    }).catch((e) => e)
    await running
    controller.abort()
    await stopped
    await call
    await reported
    equal(calls, ["echo:false", "slow:true"])
  } finally {
    await srv.stop()
  }
})

Deno.test("a served tool that suspends asks a client that declared elicitation, through Deno.serve's stream", async () => {
  const pay = defineTool({
    name: "pay",
    description: "asks before paying",
    run: (_args, ctx) => (ctx.answer?.ok ? `paid (${String(ctx.answer.data?.note)})` : pending({ kind: "approval", prompt: "Send 25?" })),
  })
  const served = await createToolkit({ builtins: false, extraTools: [pay] })
  const srv = await served.serve("127.0.0.1:0", { mcp: {} })
  try {
    const asked: string[] = []
    const asking = await createToolkit({
      builtins: false,
      mcpConfig: { mcpServers: { gw: { url: `${srv.url}/mcp` } } },
      waitFor: (request) => (asked.push(request.prompt), { id: request.id, ok: true, data: { note: "deno" } }),
    })
    const paid = await asking.execute("gw_pay", {})
    equal([paid.output, paid.isError, asked], ["paid (deno)", false, ["Send 25?"]])
    await asking.close()
    const silent = await createToolkit({ builtins: false, mcpConfig: { mcpServers: { gw: { url: `${srv.url}/mcp` } } } })
    const refused = await silent.execute("gw_pay", {})
    equal([refused.isError, refused.output.startsWith("The tool suspended (approval): Send 25?")], [true, true])
    await silent.close()
  } finally {
    await srv.stop()
  }
})
