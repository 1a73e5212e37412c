// Rewrites ES modules that only `export function`, `export async function` or `export class`
// into CommonJS: each `export function f` (or `export class C`) becomes a plain one, listed in
// `module.exports`;
// `import { a, b } from "./x.js"` of a sibling becomes `const { a, b } = require("./x.cjs")`.
// Used by build.sh for the nodejs glue's snippets (in place) and for pkg/register.cjs and
// pkg/stores.cjs (from pkg/register.js and pkg/stores.js), so each has one source.
//   node scripts/esm-to-cjs.cjs FILE...            rewrite in place
//   node scripts/esm-to-cjs.cjs SRC=DEST...        write the CommonJS of SRC to DEST
"use strict"
const fs = require("fs")

for (const arg of process.argv.slice(2)) {
  const [src, dest = src] = arg.split("=")
  const text = fs.readFileSync(src, "utf8")
  const SIBLING = /^import \{([\w\s,]+)\} from "(\.\/[\w-]+)\.js"$/gm
  if (/^export (?!(?:async )?function |class )/m.test(text) || /^import /m.test(text.replace(SIBLING, ""))) {
    throw new Error(`${src}: only a module of \`export function\`s and \`export class\`es, importing names from siblings, is rewritten`)
  }
  const names = [...text.matchAll(/^export (?:async function|function|class) (\w+)/gm)].map((m) => m[1])
  const body = text
    .replace(SIBLING, (_, list, path) => `const {${list}} = require("${path}.cjs")`)
    .replace(/^export (async function|function|class) /gm, "$1 ")
  fs.writeFileSync(dest, `${dest === src ? "" : `// Generated from ${src.split("/").pop()} by scripts/esm-to-cjs.cjs: edit that file.\n"use strict"\n`}${body}\nmodule.exports = { ${names.join(", ")} }\n`)
}
