// Prints the raw, gzip (level 9) and brotli (quality 11) bytes of what a browser downloads
// when a page imports toolnexus-wasm (the full build) or toolnexus-wasm/core (the lean build),
// and the modules a page fetches only when it makes a browser store or an HTTP tool.
// Run after the build: npm run size
import { readFileSync, existsSync } from "node:fs"
import { gzipSync, brotliCompressSync, constants } from "node:zlib"
import path from "node:path"
import { fileURLToPath } from "node:url"

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../pkg")

/**
 * The files a page importing `entry` fetches: the entry (one script: the idioms, stores,
 * httpTool's options half, the glue and its snippet bundled by scripts/bundle-entry.mjs) and
 * the wasm module.
 */
function downloads(build) {
  return [path.join(build, "index.js"), path.join(build, "web/toolnexus_bg.wasm")]
}

const sizes = (bytes) => ({
  raw: bytes.length,
  gzip: gzipSync(bytes, { level: 9 }).length,
  brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
})
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`.padStart(10)

for (const build of ["web", "core/web"]) {
  if (!existsSync(path.join(pkg, build))) {
    console.error(`pkg/${build} is missing: run \`npm run build\` first`)
    process.exit(1)
  }
}
for (const [label, build] of [["toolnexus-wasm", "."], ["toolnexus-wasm/core", "core"]]) {
  console.log(`\n${label}\n${"file".padEnd(31)}${"raw".padStart(10)}${"gzip".padStart(10)}${"brotli".padStart(10)}`)
  const total = { raw: 0, gzip: 0, brotli: 0 }
  for (const file of downloads(build)) {
    const s = sizes(readFileSync(path.join(pkg, file)))
    for (const k of Object.keys(total)) total[k] += s[k]
    console.log(`${(file.length > 30 ? "…" + file.slice(-29) : file).padEnd(31)}${kb(s.raw)}${kb(s.gzip)}${kb(s.brotli)}`)
  }
  console.log(`${"total".padEnd(31)}${kb(total.raw)}${kb(total.gzip)}${kb(total.brotli)}`)
}
// Fetched only when a page uses them: the bundle imports the first when a WebStorage or
// IndexedDB store is made, the second when an HTTP tool is.
for (const [file, when] of [["browser-stores.js", "a browser store"], ["http-send.js", "an HTTP tool"]]) {
  const lazy = sizes(readFileSync(path.join(pkg, file)))
  console.log(`\nonly when ${when} is made\n${file.padEnd(31)}${kb(lazy.raw)}${kb(lazy.gzip)}${kb(lazy.brotli)}`)
}
