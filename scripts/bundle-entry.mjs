// Writes the package's entries from the TypeScript facade (src/ts/index.ts, the full build, and
// src/ts/core/index.ts, the lean one): one per runtime, each over that runtime's loader of the
// wasm-bindgen module (`#glue` in the facade):
//   index.js   pages and bundlers: one minified script, the glue and its snippet bundled in; the
//              module comes from web/toolnexus_bg.wasm beside it (top-level await, no init());
//   node.mjs   Node, ESM: the speed build's web glue (node-esm/), instantiated synchronously
//              from node/toolnexus_bg.wasm;
//   deno.js    Deno: the same glue and module, instantiated with top-level await;
//   node.cjs   Node, require(): the nodejs glue (node/), which instantiates itself;
//   web.js     pages that serve the module from a URL of their choosing: index.js, but the
//              module is instantiated by the host's `initializeWasm(url)`, not on import.
// The plain-JS modules (src/js/*.js) are bundled into every entry, except the two a page loads
// only on first use (browser-stores.js, http-send.js), imported from the package's root.
//   node scripts/bundle-entry.mjs <pkg dir> [web|manual|node|deno|cjs ...]     (default: all)
import { existsSync, renameSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { rolldown } from "rolldown"
import { minifySync } from "rolldown/experimental"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
/** Modules a page loads only on first use: left out of the bundle, imported from the package's root. */
const ON_USE = /(^|\/)(browser-stores|http-send)\.js$/
const LOADER = "\0glue-loader"

/**
 * Each runtime's loader: re-exports the glue, instantiated once (`instantiated`), except the
 * manual page entry's, whose host calls `initializeWasm` (`instantiate`) with the module's URL.
 */
const READY = "export const instantiated = true\nexport const instantiate = async () => {}"
/** How Node and Deno read a part's path (`image("shot.png")`); a page has no such thing. */
const NODE_READ = 'export { readFileSync as readBytes } from "node:fs"'
const DENO_READ = "export const readBytes = (path) => Deno.readFileSync(path)"
const NO_READ = "export const readBytes = undefined"
const RUNTIMES = {
  web: {
    file: "index.js",
    loader: `import init from "./web/toolnexus.js"\nawait init()\nexport * from "./web/toolnexus.js"\n${READY}\n${NO_READ}`,
  },
  manual: {
    file: "web.js",
    loader: `import init from "./web/toolnexus.js"
export * from "./web/toolnexus.js"
export const instantiated = false
export const instantiate = (module_or_path) => init(module_or_path === undefined ? undefined : { module_or_path })
${NO_READ}`,
  },
  node: {
    file: "node.mjs",
    loader: `import { readFileSync } from "node:fs"
import { initSync } from "./node-esm/toolnexus.js"
initSync({ module: readFileSync(new URL("./node/toolnexus_bg.wasm", import.meta.url)) })
export * from "./node-esm/toolnexus.js"
${READY}
${NODE_READ}`,
  },
  deno: {
    file: "deno.js",
    loader: `import init from "./node-esm/toolnexus.js"
await init({ module_or_path: new URL("./node/toolnexus_bg.wasm", import.meta.url) })
export * from "./node-esm/toolnexus.js"
${READY}
${DENO_READ}`,
  },
  cjs: { file: "node.cjs", format: "cjs", loader: `export * from "./node/toolnexus.js"\n${READY}\n${NODE_READ}` },
}

const [pkgDir, ...wanted] = process.argv.slice(2)
if (!pkgDir) throw new Error("usage: node scripts/bundle-entry.mjs <pkg dir> [web|manual|node|deno|cjs ...]")
const pkgRoot = path.resolve(pkgDir)
for (const [build, source, dir] of [
  ["full", "src/ts/index.ts", pkgRoot],
  ["core", "src/ts/core/index.ts", path.join(pkgRoot, "core")],
]) {
  // A build not bound into this folder (a bench variant has the full one only) has no entries.
  if (!existsSync(path.join(dir, "web"))) continue
  for (const runtime of wanted.length ? wanted : Object.keys(RUNTIMES)) {
    const { file, loader, format = "esm" } = RUNTIMES[runtime]
    const page = runtime === "web" || runtime === "manual"
    await bundle(path.join(root, source), loader, format, page, path.join(dir, file), dir)
    console.log(`[bundle-entry] ${build} ${runtime}: ${path.relative(root, path.join(dir, file))}`)
  }
}

/** One entry: the facade at `input` over `loader`; the glue bundled into pages', else imported. */
async function bundle(input, loader, format, page, output, dir) {
  const relative = (file) => {
    const from = path.relative(dir, file).split(path.sep).join("/")
    return from.startsWith(".") ? from : `./${from}`
  }
  const build = await rolldown({
    input,
    platform: page ? "browser" : "node",
    plugins: [
      {
        name: "glue",
        resolveId(id, importer) {
          if (id === "#glue" || id === "#glue-full") return LOADER
          if (importer === LOADER && id.startsWith(".")) {
            return page ? path.join(dir, id) : { id, external: true }
          }
          if (id.startsWith(".") && ON_USE.test(id)) return { id: relative(path.join(pkgRoot, path.basename(id))), external: true }
          return null
        },
        load: (id) => (id === LOADER ? loader : null),
      },
    ],
  })
  const { output: chunks } = await build.generate({ format, file: output, dynamicImportInCjs: true })
  await build.close()
  if (chunks.length !== 1) throw new Error(`bundle-entry: ${output}: expected one chunk, got ${chunks.length}`)
  let code = chunks[0].code
  if (page) {
    // The glue looks for the module beside itself; in the bundle, that is the web/ folder.
    const WASM_URL = /new URL\((["'`])toolnexus_bg\.wasm\1, ?import\.meta\.url\)/g
    const found = code.match(WASM_URL)?.length ?? 0
    if (found !== 1) throw new Error(`bundle-entry: expected the glue's one module URL, found ${found}`)
    code = code.replace(WASM_URL, 'new URL("web/toolnexus_bg.wasm", import.meta.url)')
    const { code: minified, errors } = minifySync(output, code, { compress: true, mangle: true })
    if (errors?.length) throw new Error(`bundle-entry: ${errors.map((e) => e.message).join("; ")}`)
    code = minified
  }
  // Written beside, then moved into place: a reader of the package never sees half an entry.
  writeFileSync(`${output}.tmp`, code)
  renameSync(`${output}.tmp`, output)
}
