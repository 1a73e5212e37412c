// parseMcpConfig: the wrappers, the reserved sibling sections, the entries as given (as the
// reference port returns them), a config file read from disk, and clear errors
// (code "invalid_config") for what cannot be used.
import { test } from "node:test"
import assert from "node:assert/strict"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createToolkit, parseMcpConfig } from "../../pkg/node.mjs"
import { assertCode, rejection, thrown } from "./support/helpers.mjs"

test("servers sit under mcpServers, servers or mcp; the first present wins", () => {
  for (const key of ["mcpServers", "servers", "mcp"]) {
    assert.deepEqual(Object.keys(parseMcpConfig({ [key]: { a: { url: "http://a" } }, b: { url: "http://b" } })), ["a"])
  }
  assert.deepEqual(Object.keys(parseMcpConfig({ servers: { s: { url: "http://s" } }, mcpServers: { m: { url: "http://m" } } })), ["m"])
})

test("without a wrapper, builtins / agents / a2a / mcpServer are other sections, not servers", () => {
  const config = { builtins: false, agents: { x: {} }, a2a: { name: "me" }, mcpServer: { name: "s" }, docs: { url: "http://docs" } }
  assert.deepEqual(Object.keys(parseMcpConfig(config)), ["docs"])
})

test("each server entry comes back as given: nothing inferred, filled in or expanded", () => {
  const servers = {
    remote: { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
    claude: { command: "npx", args: ["-y", "server"], env: { A: "1" } },
    opencode: { type: "local", command: ["node", "srv.js"], environment: { B: "2" }, cwd: "/w", timeout: 5000 },
    vscode: { type: "http", url: "http://v" },
    off: { url: "http://o", disabled: true },
    alsoOff: { url: "http://o", enabled: false, disabled: false },
    filtered: { url: "http://f", tools: { search: true } },
  }
  const parsed = parseMcpConfig({ mcpServers: servers })
  assert.deepEqual(parsed, servers)
  assert.notEqual(parsed.remote, servers.remote, "a copy, not the caller's objects")
  // The reference port's own case: every wrapper, and the bare map.
  const s = { foo: { command: ["x"] } }
  for (const input of [{ mcpServers: s }, { servers: s }, { mcp: s }, s]) assert.deepEqual(parseMcpConfig(input), s)
})

test("a toolkit still reads the entries normalized: an inferred remote, a disabled entry", async () => {
  const toolkit = await createToolkit({ builtins: false, mcpConfig: { off: { url: "http://127.0.0.1:9/mcp", disabled: true } } })
  assert.deepEqual(toolkit.mcpStatus(), { off: "disabled" })
  await toolkit.close()
})

test("a file path is read and parsed (Node)", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-mcp-"))
  const file = join(dir, "mcp.json")
  writeFileSync(file, JSON.stringify({ mcpServers: { docs: { url: "http://docs" } } }))
  assert.deepEqual(parseMcpConfig(file), { docs: { url: "http://docs" } })
  writeFileSync(file, "{ not json")
  const bad = assertCode(thrown(() => parseMcpConfig(file)), "invalid_config")
  assert.match(bad.message, /^the MCP config file .*mcp\.json is not valid JSON: /)
  const missing = assertCode(thrown(() => parseMcpConfig(join(dir, "nope.json"))), "invalid_config")
  assert.match(missing.message, /^could not read the MCP config file .*nope\.json: ENOENT/)
})

test("what cannot be used throws invalid_config with the server and the reason", () => {
  const cases = [
    [5, "an MCP config must be an object or a file path, got number"],
    [[], "an MCP config must be an object or a file path, got array"],
    [{ mcpServers: [] }, 'MCP config: "mcpServers" must be an object of servers, got array'],
    [{ mcpServers: { a: {} } }, 'MCP server "a": a server needs a "url" (remote) or a "command" (local)'],
    [{ mcpServers: { a: { url: "http://a", timeout: -1 } } }, 'MCP server "a": "timeout" must be a positive number of milliseconds, got -1'],
    [{ mcpServers: { a: { command: "x", env: { K: 1 } } } }, 'MCP server "a": "env.K" must be a string'],
  ]
  for (const [input, message] of cases) {
    const error = assertCode(thrown(() => parseMcpConfig(input)), "invalid_config")
    assert.equal(error.message, message)
  }
})

test("createToolkit: an unusable config rejects, an unusable server is only failed", async () => {
  assertCode(await rejection(createToolkit({ mcpConfig: 5 })), "invalid_config")
  assertCode(await rejection(createToolkit({ mcpConfig: "/no/such/mcp.json" })), "invalid_config")
  assertCode(await rejection(createToolkit({ mcpConfig: {}, env: { A: 1 } })), "invalid_options")
  assertCode(await rejection(createToolkit({ mcpConfig: {}, waitFor: "yes" })), "invalid_options")
  const realWarn = console.warn
  const warnings = []
  console.warn = (...args) => warnings.push(args.join(" "))
  try {
    const toolkit = await createToolkit({ mcpConfig: { mcpServers: { broken: { url: 5 }, off: { command: "x", enabled: false } } }, builtins: false })
    assert.deepEqual(toolkit.mcpStatus(), { broken: "failed", off: "disabled" })
    assert.deepEqual(toolkit.mcpErrors(), { broken: 'a remote server needs a "url" string' })
    assert.deepEqual(toolkit.tools(), [])
  } finally {
    console.warn = realWarn
  }
  assert.deepEqual(warnings, ['[toolnexus] MCP server "broken" failed: a remote server needs a "url" string'])
})

test("an empty config and a config with only builtins load nothing", async () => {
  for (const mcpConfig of [{}, { mcpServers: {} }, { builtins: false }]) {
    const toolkit = await createToolkit({ mcpConfig })
    assert.deepEqual(toolkit.mcpStatus(), {})
    await toolkit.close()
  }
})
