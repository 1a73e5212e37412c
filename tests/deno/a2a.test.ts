// A2A outbound in Deno, on the packed package (see run.sh): an agent built with the official
// @a2a-js/sdk (run by Node) is reached over Deno's fetch; its skills become tools, a task
// completes after a few GetTask polls, and a failing one is an error result.
import { agent, createToolkit } from "toolnexus-wasm"

const root = Deno.env.get("TOOLNEXUS_ROOT") ?? ""
const node = Deno.env.get("TOOLNEXUS_NODE") ?? "node"

function equal(actual: unknown, expected: unknown) {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)]
  if (a !== e) throw new Error(`expected ${e}, got ${a}`)
}

Deno.test("an @a2a-js/sdk agent's skills are tools over Deno's fetch", async () => {
  const child = new Deno.Command(node, { args: [`${root}/tests/js/support/a2a-server.mjs`], stdout: "piped", stderr: "inherit" }).spawn()
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader()
  let out = ""
  try {
    while (!out.includes("\n")) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`the A2A test server exited: ${out}`)
      out += value
    }
    const card = out.match(/a2a test server: (\S+)/)?.[1] ?? ""
    const toolkit = await createToolkit({ builtins: false, agents: [agent({ card, pollEvery: 20 })] })
    equal(toolkit.tools().map((t) => t.name), ["Review_Desk_review", "Review_Desk_plan_it"])
    equal(toolkit.agentStatus(), { [card]: "connected" })
    const done = await toolkit.execute("Review_Desk_review", { task: "from Deno" })
    equal([done.isError, done.output, done.metadata?.state], [false, "REVIEWED: from Deno", "completed"])
    const failed = await toolkit.execute("Review_Desk_review", { task: "fail in Deno" })
    equal([failed.isError, failed.output], [true, `A2A task ${failed.metadata?.taskId} failed: boom`])
    await toolkit.close()
  } finally {
    child.kill()
    await reader.cancel().catch(() => {})
    await child.status
  }
})
