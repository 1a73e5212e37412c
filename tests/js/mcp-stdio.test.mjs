// Local (command) servers in Node: the official SDK's StdioServerTransport in a child
// process, started through child_process with the config's environment and cwd; concurrent
// calls, elicitation over stdio, a server that exits or does not exist, and close() stopping
// the child.
import { test } from "node:test"
import assert from "node:assert/strict"
import { fileURLToPath } from "node:url"
import { tmpdir } from "node:os"
import { realpathSync } from "node:fs"
import { createToolkit, listMcpTools } from "../../pkg/node.mjs"

const script = fileURLToPath(new URL("./support/mcp-stdio-server.mjs", import.meta.url))

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

test("a stdio server loads, runs calls concurrently, and close() stops it", async () => {
  const cwd = realpathSync(tmpdir())
  const toolkit = await createToolkit({
    builtins: false,
    mcpConfig: { mcpServers: { local: { command: [process.execPath, script], environment: { MCP_TEST_GREETING: "Hej" }, cwd } } },
  })
  assert.deepEqual(toolkit.mcpStatus(), { local: "connected" })
  assert.deepEqual(toolkit.tools().map((t) => t.name), ["local_greet", "local_slow", "local_cwd", "local_pid", "local_ask_name"])
  const [slow, greet, dir] = await Promise.all([
    toolkit.execute("local_slow", { ms: 150 }),
    toolkit.execute("local_greet", { name: "Ada" }),
    toolkit.execute("local_cwd", {}),
  ])
  assert.equal(slow.output, "slept 150")
  assert.equal(greet.output, "Hej, Ada!")
  assert.equal(dir.output, cwd)
  const pid = Number((await toolkit.execute("local_pid", {})).output)
  assert.ok(alive(pid))
  await toolkit.close()
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20))
  assert.equal(alive(pid), false, "the child was stopped")
})

test("the env option is the base environment of the child", async () => {
  const toolkit = await createToolkit({
    builtins: false,
    env: { PATH: process.env.PATH ?? "", MCP_TEST_GREETING: "Salut" },
    mcpConfig: { mcpServers: { local: { command: process.execPath, args: [script] } } },
  })
  assert.equal((await toolkit.execute("local_greet", { name: "Bo" })).output, "Salut, Bo!")
  await toolkit.close()
})

test("elicitation over stdio is answered by waitFor", async () => {
  const toolkit = await createToolkit({
    builtins: false,
    mcpConfig: { mcpServers: { local: { command: [process.execPath, script] } } },
    waitFor: (request) => ({ id: request.id, ok: true, data: { name: request.kind } }),
  })
  assert.equal((await toolkit.execute("local_ask_name", {})).output, "hi input")
  await toolkit.close()
})

test("a server that exits or does not exist is failed with why", async () => {
  const realWarn = console.warn
  console.warn = () => {}
  try {
    const toolkit = await createToolkit({
      mcpConfig: {
        mcpServers: {
          broken: { command: [process.execPath, script, "--fail"] },
          missing: { command: "/no/such/program" },
          fine: { command: [process.execPath, script] },
        },
      },
    })
    assert.deepEqual(toolkit.mcpStatus(), { broken: "failed", missing: "failed", fine: "connected" })
    assert.deepEqual(toolkit.mcpErrors(), {
      broken: "the server process ended: exited with code 3: cannot start: missing database",
      missing: "the server process ended: spawn /no/such/program ENOENT",
    })
    await toolkit.close()
  } finally {
    console.warn = realWarn
  }
})

test("listMcpTools lists a stdio server and stops it", async () => {
  const inventory = await listMcpTools({ local: { command: [process.execPath, script] } })
  assert.deepEqual(inventory.status, { local: "connected" })
  assert.deepEqual(inventory.tools.local.map((t) => t.name), ["greet", "slow", "cwd", "pid", "ask_name"])
})
