// MCP in Deno, on the packed package (see run.sh): a config file read through Deno's fs, a
// local server started with Deno.Command (the SDK's stdio server, run by Node), a remote one
// over fetch (the SDK's HTTP server, also run by Node), and elicitation answered by waitFor.
import { createToolkit, parseMcpConfig } from "toolnexus-wasm"

const root = Deno.env.get("TOOLNEXUS_ROOT") ?? ""
const node = Deno.env.get("TOOLNEXUS_NODE") ?? "node"
const stdioScript = `${root}/tests/js/support/mcp-stdio-server.mjs`
const httpScript = `${root}/tests/js/support/mcp-server.mjs`

function equal(actual: unknown, expected: unknown) {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)]
  if (a !== e) throw new Error(`expected ${e}, got ${a}`)
}

/** Starts the SDK HTTP test server in Node and reads the base URL it prints. */
async function startHttpServer(): Promise<{ base: string; stop: () => Promise<void> }> {
  const child = new Deno.Command(node, { args: [httpScript], stdout: "piped", stderr: "inherit" }).spawn()
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader()
  let out = ""
  while (!out.includes("\n")) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`the MCP test server exited: ${out}`)
    out += value
  }
  const base = out.match(/mcp test server: (\S+)/)?.[1] ?? ""
  return {
    base,
    stop: async () => {
      child.kill()
      await reader.cancel().catch(() => {})
      await child.status
    },
  }
}

Deno.test("a config file, a Deno.Command stdio server, and a remote server over fetch", async () => {
  const server = await startHttpServer()
  try {
    const file = await Deno.makeTempFile({ suffix: ".json" })
    await Deno.writeTextFile(file, JSON.stringify({
      mcpServers: {
        local: { command: [node, stdioScript], environment: { MCP_TEST_GREETING: "Hallo" } },
        remote: { url: `${server.base}/mcp`, tools: { echo: true, ask_name: true } },
        gone: { command: "/no/such/program" },
      },
    }))
    // The entries as written (the reference port's parseMcpConfig adds nothing).
    equal(parseMcpConfig(file).local, { command: [node, stdioScript], environment: { MCP_TEST_GREETING: "Hallo" } })
    const toolkit = await createToolkit({
      mcpConfig: file,
      builtins: false,
      waitFor: (request) => ({ id: request.id, ok: true, data: { name: "Deno" } }),
    })
    equal(toolkit.mcpStatus(), { local: "connected", remote: "connected", gone: "failed" })
    equal((await toolkit.execute("local_greet", { name: "Ada" })).output, "Hallo, Ada!")
    equal((await toolkit.execute("local_ask_name", {})).output, "hi Deno")
    equal((await toolkit.execute("remote_echo", { text: "from Deno" })).output, "echo: from Deno")
    equal((await toolkit.execute("remote_ask_name", {})).output, "hello Deno")
    await toolkit.close()
  } finally {
    await server.stop()
  }
})
