// Minifies the JavaScript a page downloads with the module: wasm-bindgen's glue and its
// snippets (src/js/shim.js), in place, in each directory given. Whitespace, comments and
// redundant syntax go. Names stay unless `--mangle` is given: then local names are shortened
// too (exports keep theirs), for what a browser downloads; Node's and Deno's glue, read from
// disk, keeps every name for its stack traces. The typings (.d.ts) keep every doc comment.
// Used by scripts/build.sh:
//   node scripts/minify-glue.mjs [--mangle] pkg-stage/full/web …              (in place)
//   node scripts/minify-glue.mjs [--mangle] src/js/stores.js=pkg/stores.js  (one file to another)
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
function minify(file, dest, mangle) {
  const source = readFileSync(file, "utf8")
  const { code, errors } = minifySync(file, source, { compress: true, mangle })
  if (errors?.length) {
    console.error(`minify-glue: ${file}: ${errors.map((e) => e.message).join("; ")}`)
    process.exit(1)
  }
  writeFileSync(dest, code)
}

const args = process.argv.slice(2)
const mangle = args.includes("--mangle")
for (const arg of args.filter((a) => a !== "--mangle")) {
  const [src, dest] = arg.split("=")
  if (dest !== undefined) minify(src, dest, mangle)
  else for (const file of scripts(src)) minify(file, file, mangle)
}
