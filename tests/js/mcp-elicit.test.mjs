// Elicitation answered by the toolkit's waitFor, against the official SDK server: the
// capability is advertised only with a waitFor; a form elicitation is a Request of kind
// "input" with the requested schema in data.schema, a URL elicitation one of kind
// "authorization" with url; accept / decline / cancel (and a throwing waitFor) map back.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { createToolkit } from "../../pkg/node.mjs"
import { startMcpServer } from "./support/mcp-server.mjs"

let server
before(async () => {
  server = await startMcpServer()
})
after(async () => {
  await server.close()
})

async function kitWith(waitFor) {
  return createToolkit({ builtins: false, mcpConfig: { mcpServers: { s: { url: server.url("/mcp") } } }, waitFor })
}

test("a form elicitation reaches waitFor as kind input and accept returns the data", async () => {
  const seen = []
  const toolkit = await kitWith(async (request) => {
    seen.push(request)
    return { id: request.id, ok: true, data: { name: "Ada" } }
  })
  const init = server.requests.findLast((r) => r.body?.method === "initialize")
  assert.deepEqual(init.body.params.capabilities, { elicitation: { form: {}, url: {} } })
  assert.deepEqual(await toolkit.execute("s_ask_name", {}), { output: "hello Ada", isError: false, metadata: { server: "s" } })
  assert.equal(seen.length, 1)
  const [request] = seen
  assert.match(request.id, /^elc-[0-9a-z]+-\d+$/)
  assert.equal(request.kind, "input")
  assert.equal(request.prompt, "What is your name?")
  assert.deepEqual(request.data, { schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } })
  assert.equal(request.url, undefined)
  const reply = server.requests.findLast((r) => r.body?.result?.action)
  assert.deepEqual(reply.body.result, { action: "accept", content: { name: "Ada" } })
  await toolkit.close()
})

test("a URL elicitation reaches waitFor as kind authorization with the url", async () => {
  const seen = []
  const toolkit = await kitWith((request) => {
    seen.push(request)
    return { id: request.id, ok: true }
  })
  assert.equal((await toolkit.execute("s_sign_in", {})).output, "sign-in: accept")
  assert.equal(seen[0].kind, "authorization")
  assert.equal(seen[0].prompt, "Sign in to continue")
  assert.equal(seen[0].url, "https://example.com/login")
  assert.equal(seen[0].data, undefined)
  await toolkit.close()
})

test("decline, cancel and a throwing waitFor map back to the server", async () => {
  const cases = [
    [(r) => ({ id: r.id, ok: false, reason: "declined" }), "no name: decline"],
    [(r) => ({ id: r.id, ok: false, reason: "cancelled" }), "no name: cancel"],
    [(r) => ({ id: r.id, ok: false }), "no name: cancel"],
    [async () => { throw new Error("dialog closed") }, "no name: cancel"],
    [() => ({ id: "someone-else", ok: true, data: { name: "Eve" } }), "no name: cancel"],
  ]
  for (const [waitFor, output] of cases) {
    const toolkit = await kitWith(waitFor)
    assert.equal((await toolkit.execute("s_ask_name", {})).output, output, String(waitFor))
    await toolkit.close()
  }
})

test("without waitFor elicitation is not advertised, and the server's tool reports it", async () => {
  const toolkit = await kitWith(undefined)
  const init = server.requests.findLast((r) => r.body?.method === "initialize")
  assert.deepEqual(init.body.params.capabilities, {})
  const result = await toolkit.execute("s_ask_name", {})
  assert.equal(result.isError, true)
  assert.match(result.output, /does not support form elicitation/)
  await toolkit.close()
})

test("an agent run whose MCP tool elicits: the same waitFor answers both", async () => {
  const { createInProcessClient } = await import("../../pkg/node.mjs")
  const waitFor = async (request) => ({ id: request.id, ok: true, data: { name: "Grace" } })
  const toolkit = await kitWith(waitFor)
  const generate = async ({ messages }) => {
    const last = messages[messages.length - 1]
    return last.role === "tool" ? { content: `tool said: ${last.content}` } : { toolCalls: [{ name: "s_ask_name", arguments: {} }] }
  }
  const result = await createInProcessClient({ model: "scripted", generate, waitFor }).run("greet me", { toolkit })
  assert.equal(result.status, "done")
  assert.equal(result.text, "tool said: hello Grace")
  await toolkit.close()
})
