// Prints the raw, gzip (level 9) and brotli (quality 11) bytes of what a browser downloads
// when a page imports toolnexus-wasm. Run after the build: npm run size
import { readFileSync, existsSync, readdirSync } from "node:fs"
import { gzipSync, brotliCompressSync, constants } from "node:zlib"
import path from "node:path"
import { fileURLToPath } from "node:url"

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../pkg")
const files = ["index.js", "register.js", "web/toolnexus.js", "web/toolnexus_bg.wasm"]
// The glue's JS snippets (web/snippets/<crate-hash>/src/js/*.js), which the glue imports.
const snippets = path.join(pkg, "web", "snippets")
if (existsSync(snippets)) {
  for (const entry of readdirSync(snippets, { recursive: true })) {
    if (String(entry).endsWith(".js")) files.push(path.join("web", "snippets", String(entry)))
  }
}

const sizes = (bytes) => ({
  raw: bytes.length,
  gzip: gzipSync(bytes, { level: 9 }).length,
  brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
})
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`.padStart(10)

if (!existsSync(path.join(pkg, "web"))) {
  console.error("pkg/web is missing: run `npm run build` first")
  process.exit(1)
}
console.log(`${"file".padEnd(26)}${"raw".padStart(10)}${"gzip".padStart(10)}${"brotli".padStart(10)}`)
const total = { raw: 0, gzip: 0, brotli: 0 }
for (const file of files) {
  const s = sizes(readFileSync(path.join(pkg, file)))
  for (const k of Object.keys(total)) total[k] += s[k]
  console.log(`${(file.length > 25 ? "…" + file.slice(-24) : file).padEnd(26)}${kb(s.raw)}${kb(s.gzip)}${kb(s.brotli)}`)
}
console.log(`${"total".padEnd(26)}${kb(total.raw)}${kb(total.gzip)}${kb(total.brotli)}`)
