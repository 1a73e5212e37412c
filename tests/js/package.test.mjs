// The package as a user gets it: `npm pack` the pkg/ folder, `npm install` the tarball into a
// fresh project, then import / require it by name in child processes run from that project.
import { test, before, after } from "node:test"
import assert from "node:assert/strict"
import { execFile } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const run = promisify(execFile)
// An absolute path: `npm pack pkg` would fetch the registry package named "pkg" instead.
const PKG_DIR = fileURLToPath(new URL("../../pkg", import.meta.url))
const NPM = process.platform === "win32" ? "npm.cmd" : "npm"

let root // temp dir holding the tarball and the user project
let app // the user project
let packed // npm pack --json entry
let installed // node_modules/toolnexus-wasm

before(async () => {
  root = mkdtempSync(join(tmpdir(), "toolnexus-pkg-"))
  const { stdout } = await run(NPM, ["pack", PKG_DIR, "--pack-destination", root, "--json"], { cwd: root })
  packed = JSON.parse(stdout)[0]
  app = join(root, "app")
  mkdirSync(app)
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "user-app", version: "1.0.0", private: true }))
  await run(NPM, ["install", "--no-audit", "--no-fund", "--offline", join(root, packed.filename)], { cwd: app })
  installed = join(app, "node_modules", "toolnexus-wasm")
}, { timeout: 180_000 })

after(() => {
  if (root) rmSync(root, { recursive: true, force: true })
})

/** Runs `node <args>` in the user project; fails the test on a non-zero exit. */
async function node(args) {
  const { stdout } = await run(process.execPath, args, { cwd: app, timeout: 30_000 })
  return stdout.trim()
}

function script(name, text) {
  writeFileSync(join(app, name), text)
  return name
}

function listFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath ?? d.path, d.name)).split("\\").join("/"))
    .sort()
}

const USE_TOOL = `
  const weather = defineTool({
    name: "get_weather",
    description: "Weather",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    run: async ({ city }) => "Sunny in " + city,
  })
  const toolkit = await createToolkit({ builtins: false, extraTools: [weather] })
  const ok = await toolkit.execute("get_weather", { city: "Oslo" })
  const bad = await toolkit.execute("get_weather", {})
  const names = toolkit.register().tools().map((t) => t.name)
`

test("the tarball holds exactly the files a user needs", () => {
  assert.equal(packed.name, "toolnexus-wasm")
  const files = packed.files.map((f) => f.path).sort()
  // The entries (written from the TypeScript facade), their declarations (ESM and CommonJS), and
  // the two modules a page loads on first use.
  const topLevel = ["deno.js", "index.js", "web.js", "node.cjs", "node.mjs", "package.json", "browser-stores.js", "http-send.js"]
  for (const types of ["index", "types", "records", "parts", "stores", "errors", "define-tool", "agents", "agents-full", "agents-tree", "browser-fs", "serve", "a2a-serve", "idb-task-store", "serve-exchange", "token-stores"]) {
    topLevel.push(`${types}.d.ts`, `${types}.d.cts`)
  }
  for (const optional of ["README.md", "LICENSE"]) {
    if (existsSync(join(PKG_DIR, optional))) topLevel.push(optional)
  }
  assert.deepEqual(files.filter((f) => !f.includes("/")).sort(), topLevel.sort())
  const nested = files.filter((f) => f.includes("/"))
  // The glue's JS snippets (wasm-bindgen keeps their crate path): src/js/shim.js, for the full
  // build (web/, node/, node-esm/) and the lean one (core/web/, core/node/, core/node-esm/), and
  // src/js/shim-builtins.js (the built-ins' helpers) and src/js/webcrypto.js (the MCP client's
  // OAuth signing over WebCrypto) for the full build only.
  const snippet = /^(core\/)?(web|node|node-esm)\/snippets\/toolnexus-[0-9a-f]+\/src\/js\/(shim(-builtins)?|webcrypto)\.js$/
  assert.ok(!files.some((f) => f.startsWith("core/") && f.endsWith("shim-builtins.js")), "the lean build has no built-ins")
  assert.ok(!files.some((f) => f.startsWith("core/") && f.endsWith("webcrypto.js")), "the lean build has no MCP client")
  for (const target of ["web", "node", "node-esm", "core/web", "core/node", "core/node-esm"]) {
    assert.ok(files.some((f) => f.startsWith(`${target}/snippets/`) && snippet.test(f)), `missing ${target}/snippets`)
  }
  const coreEntries = ["core/deno.js", "core/index.js", "core/web.js", "core/node.cjs", "core/node.mjs"]
  for (const types of ["index", "types", "records"]) coreEntries.push(`core/${types}.d.ts`, `core/${types}.d.cts`)
  for (const f of nested.filter((f) => !snippet.test(f) && !coreEntries.includes(f))) {
    assert.match(f, /^(core\/)?(web|node|node-esm)\/[^/]+$/, `unexpected file ${f}`)
  }
  for (const build of ["", "core/"]) {
    for (const needed of ["web/toolnexus.js", "web/toolnexus_bg.wasm", "node/toolnexus.js", "node/toolnexus_bg.wasm",
      "node/package.json", "node-esm/toolnexus.js"]) {
      assert.ok(files.includes(build + needed), `missing ${build + needed}`)
    }
    // The glue is internal: its typings are not shipped (the facade's are the package's).
    assert.ok(!files.some((f) => f.startsWith(build) && /(web|node|node-esm)\/.*\.d\.ts$/.test(f)), `${build}: glue typings shipped`)
  }
  for (const needed of coreEntries) assert.ok(files.includes(needed), `missing ${needed}`)
  for (const f of files.filter((f) => !snippet.test(f))) {
    assert.doesNotMatch(f, /\.(rs|toml|lock|tgz|old|map)$|(^|\/)(src|tests?|target|scripts)\/|\.test\.|\.spec\./, `source or test file ${f}`)
  }
})

test("the installed package has the same files as the tarball", () => {
  assert.deepEqual(listFiles(installed), packed.files.map((f) => f.path).sort())
  const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"))
  assert.equal(manifest.name, "toolnexus-wasm")
  assert.equal(JSON.parse(readFileSync(join(installed, "node", "package.json"), "utf8")).type, "commonjs")
})

test("every path the manifest points at exists in the installed package", () => {
  const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"))
  const targets = [manifest.main, manifest.module, manifest.types]
  const walk = (v) => (typeof v === "string" ? targets.push(v) : Object.values(v).forEach(walk))
  walk(manifest.exports)
  assert.ok(targets.length >= 10)
  for (const target of targets) assert.ok(existsSync(join(installed, target)), `${target} is missing`)
})

test("ESM: import by name resolves to node.mjs and runs a tool through a toolkit", async () => {
  const out = await node([script("esm.mjs", `
    import { createToolkit, defineTool } from "toolnexus-wasm"
    import * as all from "toolnexus-wasm"
    ${USE_TOOL}
    console.log(JSON.stringify({
      resolved: import.meta.resolve("toolnexus-wasm"),
      manifest: import.meta.resolve("toolnexus-wasm/package.json"),
      ok, bad, names, exports: Object.keys(all).sort(),
    }))
  `)])
  const r = JSON.parse(out)
  assert.ok(r.resolved.endsWith("/node_modules/toolnexus-wasm/node.mjs"), r.resolved)
  assert.ok(r.manifest.endsWith("/node_modules/toolnexus-wasm/package.json"), r.manifest)
  assert.deepEqual(r.ok, { output: "Sunny in Oslo", isError: false })
  assert.deepEqual(r.bad, { output: 'Invalid arguments for tool "get_weather": required property "city" is missing', isError: true })
  assert.deepEqual(r.names, ["get_weather"])
  for (const name of ["createToolkit", "defineTool", "pending", "pendingOf", "authRequired", "sanitize", "toOpenAI",
    "toAnthropic", "toGemini", "Tool", "Toolkit", "httpTool", "listSkills", "loadSkills", "loadMcp", "createBuiltinTools",
    "builtinsEnabled", "expandEnvHeaders", "elicitationToRequest", "answerToElicitResult", "SKILLS_PROMPT_PREAMBLE",
    "SKILL_TOOL_DESCRIPTION", "tool", "collectTools", "Client", "openAIMessagesToAnthropic", "openAIToolsToAnthropic",
    "openAIToolChoiceToAnthropic", "finishReasonFor", "argsObject", "argsString", "toolCallsOf", "contentText",
    "hasSystemMessage", "agents", "agent", "parseAgentsConfig", "agentTools"]) {
    assert.ok(r.exports.includes(name), `missing export ${name}`)
  }
  // The wasm-bindgen module's own helpers and classes stay behind the facade.
  for (const internal of ["start", "__setDefaultStore", "__setErrorClass", "__skillTexts", "registerAll", "streamEvents",
    "RunStream", "initSync", "default"]) {
    assert.ok(!r.exports.includes(internal), `internal export ${internal}`)
  }
})

test("CJS: require by name resolves to node.cjs and runs a tool through a toolkit", async () => {
  const out = await node([script("cjs.cjs", `
    const { createToolkit, defineTool } = require("toolnexus-wasm")
    ;(async () => {
      ${USE_TOOL}
      console.log(JSON.stringify({
        resolved: require.resolve("toolnexus-wasm"),
        manifest: require("toolnexus-wasm/package.json").name,
        ok, bad, names,
      }))
    })().catch((e) => { console.error(e); process.exit(1) })
  `)])
  const r = JSON.parse(out)
  assert.ok(r.resolved.endsWith(join("node_modules", "toolnexus-wasm", "node.cjs")), r.resolved)
  assert.equal(r.manifest, "toolnexus-wasm")
  assert.deepEqual(r.ok, { output: "Sunny in Oslo", isError: false })
  assert.deepEqual(r.bad, { output: 'Invalid arguments for tool "get_weather": required property "city" is missing', isError: true })
  assert.deepEqual(r.names, ["get_weather"])
})

test("node -e, both module kinds, from the user project", async () => {
  const cjs = await node(["-e", `
    const t = require("toolnexus-wasm")
    t.createToolkit({ builtins: false, extraTools: [t.defineTool({ name: "ping", run: () => "pong" })] })
      .then((k) => k.execute("ping", {})).then((r) => console.log(r.output + " " + t.sanitize("a b")))
  `])
  assert.equal(cjs, "pong a_b")
  const esm = await node(["--input-type=module", "-e", `
    import { createToolkit, defineTool, pendingOf, pending } from "toolnexus-wasm"
    const k = await createToolkit({ builtins: false, extraTools: [defineTool({ name: "ask", run: () => pending({ id: "q", kind: "approval", prompt: "ok?" }) })] })
    console.log(pendingOf(await k.execute("ask", {})).prompt)
  `])
  assert.equal(esm, "ok?")
})

test("toolnexus-wasm/core: both module kinds load the lean build, run a tool, and lack the full build's sources", async () => {
  const esm = await node([script("core.mjs", `
    import { createToolkit, defineTool } from "toolnexus-wasm/core"
    import * as core from "toolnexus-wasm/core"
    import * as full from "toolnexus-wasm"
    ${USE_TOOL}
    let refused
    try { await createToolkit({ skills: [{ name: "pdf", content: "x" }] }) } catch (e) { refused = e.code + ": " + e.message }
    console.log(JSON.stringify({
      resolved: import.meta.resolve("toolnexus-wasm/core"),
      ok, names, refused,
      missing: Object.keys(full).filter((k) => !(k in core)).sort(),
      extra: Object.keys(core).filter((k) => !(k in full)),
      separate: core.Toolkit !== full.Toolkit,
    }))
  `)])
  const r = JSON.parse(esm)
  assert.ok(r.resolved.endsWith("/node_modules/toolnexus-wasm/core/node.mjs"), r.resolved)
  assert.deepEqual(r.ok, { output: "Sunny in Oslo", isError: false })
  assert.deepEqual(r.names, ["get_weather"])
  assert.equal(r.refused, 'unsupported: createToolkit: "skills" needs the full build: import from "toolnexus-wasm", not "toolnexus-wasm/core"')
  assert.deepEqual(r.missing, [
    "FileTaskStore", "FileTokenStore", "InMemoryTaskStore", "IndexedDbFileSystem", "IndexedDbTaskStore", "IndexedDbTokenStore", "McpServer", "McpSource", "MemoryFileSystem", "SKILLS_PROMPT_PREAMBLE", "SKILL_TOOL_DESCRIPTION", "SkillSource",
    "agent", "agentTools", "answerToElicitResult", "argsObject", "argsString", "audio", "buildAgentCard", "buildMcpServer", "builtinsEnabled", "contentText", "createBuiltinTools",
    "elicitationToRequest", "expandEnvHeaders", "exposedMcpTools", "file", "finishReasonFor", "hasSystemMessage", "image", "listMcpTools",
    "listSkills", "loadMcp", "loadSkills", "openAIMessagesToAnthropic", "openAIToolChoiceToAnthropic",
    "openAIToolsToAnthropic", "parseAgentsConfig", "parseMcpConfig", "part", "resolveStore", "text", "toolCallsOf",
  ])
  assert.deepEqual(r.extra, [])
  assert.equal(r.separate, true)
  const cjs = await node(["-e", `
    const t = require("toolnexus-wasm/core")
    t.createToolkit({ extraTools: [t.defineTool({ name: "ping", run: () => "pong" })] })
      .then((k) => k.register().execute("ping", {}))
      .then((r) => console.log(require.resolve("toolnexus-wasm/core") + " " + r.output + " " + typeof t.listSkills))
  `])
  assert.match(cjs, /node_modules\/toolnexus-wasm\/core\/node\.cjs pong undefined$/)
})

test("toolnexus-wasm/core downloads far less than the full build", () => {
  const size = (dir) => readFileSync(join(installed, dir, "web", "toolnexus_bg.wasm")).length
  const [full, core] = [size("."), size("core")]
  // The MCP client, skills (with their YAML parser) and the built-in tools are a third of the
  // full module; a lean module that is not clearly smaller means the feature gate leaks.
  assert.ok(core < full * 0.75, `core ${core} bytes, full ${full} bytes`)
})

test("Node loads the build compiled for speed, a browser the one compiled for size", () => {
  for (const build of [".", "core"]) {
    const web = readFileSync(join(installed, build, "web", "toolnexus_bg.wasm"))
    const node = readFileSync(join(installed, build, "node", "toolnexus_bg.wasm"))
    // opt-level 3 inlines what opt-level "z" calls: the same code, more bytes.
    assert.ok(node.length > web.length * 1.1, `${build}: node ${node.length} bytes, web ${web.length} bytes`)
    // The ESM glue for Node has no module of its own: it instantiates node/'s.
    assert.ok(!existsSync(join(installed, build, "node-esm", "toolnexus_bg.wasm")), `${build}/node-esm has a .wasm`)
  }
})

test("files outside the exports map are not importable by deep path", async () => {
  const out = await node([script("deep.mjs", `
    const codes = []
    for (const spec of ["toolnexus-wasm/node.mjs", "toolnexus-wasm/web/toolnexus.js", "toolnexus-wasm/node/toolnexus.js", "toolnexus-wasm/core/node.mjs"]) {
      try { await import(spec); codes.push("imported") } catch (e) { codes.push(e.code) }
    }
    console.log(JSON.stringify(codes))
  `)])
  assert.deepEqual(JSON.parse(out), Array(4).fill("ERR_PACKAGE_PATH_NOT_EXPORTED"))
})
