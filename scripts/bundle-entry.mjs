// Bundles a browser entry into one minified file: the entry (src/js/entries/), the idioms
// (register.js), the stores, httpTool's options half, wasm-bindgen's glue and its snippet. A
// page then fetches one script and the .wasm instead of six scripts, and gzip sees them as one
// text (1.4 KiB less than the six apart). The modules a page loads only on use stay apart
// (browser-stores.js, http-send.js: imported by path, relative to the bundle), and so does the
// .wasm, which the glue finds beside the bundle's web/ folder. Used by scripts/build.sh:
//   node scripts/bundle-entry.mjs src/js/entries/web.js pkg-stage/index.js
// The entry's own imports are written relative to where the bundle goes (`./web/toolnexus.js`).
import { readFileSync, renameSync, writeFileSync } from "node:fs"
import path from "node:path"
import { rolldown } from "rolldown"
import { minifySync } from "rolldown/experimental"

/** Modules a page loads only on first use: left out of the bundle, imported from beside it. */
const ON_USE = /(^|\/)(browser-stores|http-send)\.js$/

const [source, output] = process.argv.slice(2)
const ENTRY = "\0entry"
const outDir = path.dirname(path.resolve(output))

const bundle = await rolldown({
  input: ENTRY,
  plugins: [
    {
      name: "entry",
      resolveId(id, importer) {
        if (id === ENTRY) return id
        const base = importer === ENTRY ? outDir : importer && path.dirname(importer)
        if (!base || !id.startsWith(".")) return null
        const file = path.resolve(base, id)
        if (!ON_USE.test(id)) return file
        // Kept as an import of the file beside the bundle, written from the bundle's folder.
        const from = path.relative(outDir, file).split(path.sep).join("/")
        return { id: from.startsWith(".") ? from : `./${from}`, external: true }
      },
      load(id) {
        return id === ENTRY ? readFileSync(source, "utf8") : null
      },
    },
  ],
})
const { output: chunks } = await bundle.generate({ format: "esm", file: output })
await bundle.close()
if (chunks.length !== 1) throw new Error(`bundle-entry: expected one chunk, got ${chunks.length}`)
let code = chunks[0].code

// The glue looks for the module beside itself; in the bundle, that is the web/ folder.
const WASM_URL = /new URL\((["'`])toolnexus_bg\.wasm\1, ?import\.meta\.url\)/g
const found = code.match(WASM_URL)?.length ?? 0
if (found !== 1) throw new Error(`bundle-entry: expected the glue's one module URL, found ${found}`)
code = code.replace(WASM_URL, 'new URL("web/toolnexus_bg.wasm", import.meta.url)')

// Imports of the on-use modules must point beside the bundle's folder, as written from it.
for (const [, specifier] of code.matchAll(/import\((["'`])([^"'`]+)\1\)/g)) {
  if (ON_USE.test(specifier) && !specifier.startsWith(".")) {
    throw new Error(`bundle-entry: ${specifier} is not a relative import`)
  }
}

const { code: minified, errors } = minifySync(output, code, { compress: true, mangle: true })
if (errors?.length) throw new Error(`bundle-entry: ${errors.map((e) => e.message).join("; ")}`)
// Written beside, then moved into place: a reader of the package never sees half a bundle.
writeFileSync(`${output}.tmp`, minified)
renameSync(`${output}.tmp`, output)
console.log(`[bundle-entry] ${output}: ${minified.length} bytes`)
