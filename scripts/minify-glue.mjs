// Minifies the JavaScript a page downloads with the module: wasm-bindgen's glue and its
// snippets (src/js/shim.js), in place, in each directory given. Whitespace, comments and
// redundant syntax go; names stay (no mangling), so stack traces still name the functions.
// The typings (.d.ts) keep every doc comment. Used by scripts/build.sh:
//   node scripts/minify-glue.mjs pkg-stage/full/web pkg-stage/full/node …   (in place)
//   node scripts/minify-glue.mjs src/js/stores.js=pkg/stores.js             (one file to another)
import { readFileSync, writeFileSync, readdirSync, existsSync } from "node:fs"
import path from "node:path"
import { minifySync } from "rolldown/experimental"

/** The glue and snippet files of one wasm-bindgen output directory. */
function scripts(dir) {
  const files = [path.join(dir, "toolnexus.js")]
  const snippets = path.join(dir, "snippets")
  if (existsSync(snippets)) {
    for (const entry of readdirSync(snippets, { recursive: true })) {
      if (String(entry).endsWith(".js")) files.push(path.join(snippets, String(entry)))
    }
  }
  return files
}

/** Writes `file` minified to `dest`. */
function minify(file, dest) {
  const source = readFileSync(file, "utf8")
  const { code, errors } = minifySync(file, source, { compress: true, mangle: false })
  if (errors?.length) {
    console.error(`minify-glue: ${file}: ${errors.map((e) => e.message).join("; ")}`)
    process.exit(1)
  }
  writeFileSync(dest, code)
}

for (const arg of process.argv.slice(2)) {
  const [src, dest] = arg.split("=")
  if (dest !== undefined) minify(src, dest)
  else for (const file of scripts(src)) minify(file, file)
}
