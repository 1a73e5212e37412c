// toolkit.serve as an A2A agent in Deno (Deno.serve), on the packed package (see run.sh): the
// model is a scripted Chat Completions endpoint served with Deno.serve; the tasks live in a
// FileTaskStore on Deno's own file system, and a second server over the same directory answers
// GetTask for the first one's task; a body over the cap is refused with 413.
import { createClient, createToolkit, FileTaskStore } from "toolnexus-wasm"

function equal(actual: unknown, expected: unknown) {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)]
  if (a !== e) throw new Error(`expected ${e}, got ${a}`)
}

Deno.test("an A2A task runs, is kept in a FileTaskStore on Deno's file system, and a second server reads it", async () => {
  const model = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const body = await request.json()
    const text = body.messages.at(-1).content
    const reply = { choices: [{ index: 0, message: { role: "assistant", content: `ANSWER: ${text}` }, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }
    return Response.json(reply)
  })
  const dir = await Deno.makeTempDir()
  const client = createClient({ baseUrl: `http://127.0.0.1:${model.addr.port}/v1`, style: "openai", model: "m", apiKey: "k" })
  const toolkit = await createToolkit({ builtins: false, skills: [{ name: "hello", description: "Says hello", content: "Hi." }] })
  const first = await toolkit.serve("127.0.0.1:0", { client, a2a: { name: "desk", store: `file:${dir}` } })
  const second = await toolkit.serve("127.0.0.1:0", { client, a2a: { name: "desk", store: new FileTaskStore(dir) } })
  try {
    const card = await (await fetch(`${first.url}/.well-known/agent-card.json`)).json()
    equal(card.skills, [{ id: "hello", name: "hello", description: "Says hello" }])
    const rpc = async (url: string, method: string, params: unknown) =>
      (await fetch(`${url}/`, { method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })).json()
    const sent = await rpc(first.url, "SendMessage", { message: { role: "ROLE_USER", messageId: "m1", parts: [{ text: "hello" }] } })
    equal(sent.result.task.status.state, "TASK_STATE_COMPLETED")
    equal(sent.result.task.artifacts[0].parts, [{ text: "ANSWER: hello" }])
    const read = await rpc(second.url, "GetTask", { id: sent.result.task.id })
    equal(read.result.status.state, "TASK_STATE_COMPLETED")
    const files = [...Deno.readDirSync(dir)].map((e) => e.name)
    equal(files, [`${sent.result.task.id}.json`])
    // A body over a2a.maxBodyBytes (1 MiB) is refused with 413, and the server keeps serving.
    const big = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "SendMessage", params: { message: { role: "user", parts: [{ kind: "text", text: "x".repeat(2 * 1024 * 1024) }] } } })
    const refused = await fetch(`${first.url}/`, { method: "POST", headers: { "content-type": "application/json" }, body: big })
    equal(refused.status, 413)
    equal((await refused.json()).error.code, -32600)
    equal((await rpc(first.url, "GetTask", { id: sent.result.task.id })).result.status.state, "TASK_STATE_COMPLETED")
    equal([...Deno.readDirSync(dir)].length, 1)
  } finally {
    await first.stop()
    await second.stop()
    await model.shutdown()
    await Deno.remove(dir, { recursive: true })
  }
})
