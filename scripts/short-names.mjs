// Shortens the names between a browser build's glue and module, in both together, before the
// glue is minified. wasm-bindgen names each import `__wbg_<name>_<16 hex digits>` and the
// module each is imported from by its path (`./toolnexus_bg.js`, the snippet's); the hashes are
// the part gzip cannot shrink (~1 KiB of a download for nothing). Here an import becomes
// `__wbg_<name>` (`_1`, `_2` … where taken), an import module `w` (the glue) or `s<n>` (a snippet),
// and an export the glue calls as `wasm.<name>` a short `e<n>`. The module's other bytes are
// copied as they are; in the glue only those names change (a snippet's `import … from` keeps
// its path). Only for a glue and module that ship as a pair (--target web), in place:
//   node scripts/short-names.mjs pkg-stage/core/web
import { readFileSync, writeFileSync, existsSync } from "node:fs"
import path from "node:path"

const HASHED = /__wbg_([A-Za-z0-9_]*?)_([0-9a-f]{16})\b/g

/** Reads an unsigned LEB128 at `at`: [value, next offset]. */
function leb(bytes, at) {
  let value = 0
  let shift = 0
  for (;;) {
    const byte = bytes[at++]
    value += (byte & 0x7f) * 2 ** shift
    shift += 7
    if (byte < 0x80) return [value, at]
  }
}

/** An unsigned LEB128 encoding of `value`. */
function uleb(value) {
  const out = []
  do {
    let byte = value % 128
    value = Math.floor(value / 128)
    if (value > 0) byte |= 0x80
    out.push(byte)
  } while (value > 0)
  return out
}

/** The offset just past an import's description (its kind byte at `at`). */
function skipImportDesc(bytes, at) {
  const kind = bytes[at++]
  const limits = (i) => {
    const flags = bytes[i++]
    i = leb(bytes, i)[1]
    return flags & 1 ? leb(bytes, i)[1] : i
  }
  switch (kind) {
    case 0: // function: a type index
      return leb(bytes, at)[1]
    case 1: // table: a reference type, then limits
      return limits(at + 1)
    case 2: // memory: limits
      return limits(at)
    case 3: // global: a value type and mutability
      return at + 2
    case 4: // tag: an attribute and a type index
      return leb(bytes, at + 1)[1]
    default:
      throw new Error(`short-names: unknown import kind ${kind}`)
  }
}

/** A wasm name: its length, then its UTF-8 bytes. */
function encodeName(name) {
  const bytes = new TextEncoder().encode(name)
  return [...uleb(bytes.length), ...bytes]
}

/** Reads a wasm name at `at`: [text, next offset]. */
function readName(bytes, at) {
  const [length, start] = leb(bytes, at)
  return [new TextDecoder().decode(bytes.subarray(start, start + length)), start + length]
}

/**
 * `wasm` with its import modules and fields renamed through `modules` and `fields`, and its
 * exports through `exports` (Maps; a name in none stays); every other byte as it was.
 */
function renameNames(wasm, { modules, fields, exports }) {
  const out = [wasm.subarray(0, 8)]
  let at = 8
  while (at < wasm.length) {
    const id = wasm[at]
    const [size, body] = leb(wasm, at + 1)
    const end = body + size
    if (id !== 2 && id !== 7) {
      out.push(wasm.subarray(at, end))
      at = end
      continue
    }
    let [count, i] = leb(wasm, body)
    const section = [...uleb(count)]
    for (; count > 0; count--) {
      if (id === 2) {
        const [module, fieldAt] = readName(wasm, i)
        const [field, descAt] = readName(wasm, fieldAt)
        i = skipImportDesc(wasm, descAt)
        section.push(...encodeName(modules.get(module) ?? module), ...encodeName(fields.get(field) ?? field))
        section.push(...wasm.subarray(descAt, i))
      } else {
        const [name, kindAt] = readName(wasm, i)
        i = leb(wasm, kindAt + 1)[1]
        section.push(...encodeName(exports.get(name) ?? name), ...wasm.subarray(kindAt, i))
      }
    }
    if (i !== end) throw new Error(`short-names: section ${id} did not parse to its end`)
    out.push(Uint8Array.of(id, ...uleb(section.length)), Uint8Array.from(section))
    at = end
  }
  return Buffer.concat(out)
}

/** The names a module exports, in order. */
function exportNames(wasm) {
  let at = 8
  while (at < wasm.length) {
    const [size, body] = leb(wasm, at + 1)
    if (wasm[at] === 7) {
      let [count, i] = leb(wasm, body)
      const names = []
      for (; count > 0; count--) {
        const [name, kindAt] = readName(wasm, i)
        names.push(name)
        i = leb(wasm, kindAt + 1)[1]
      }
      return names
    }
    at = body + size
  }
  return []
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

for (const dir of process.argv.slice(2)) {
  const gluePath = path.join(dir, "toolnexus.js")
  const wasmPath = path.join(dir, "toolnexus_bg.wasm")
  const typingsPath = path.join(dir, "toolnexus_bg.wasm.d.ts")
  let glue = readFileSync(gluePath, "utf8")
  const wasm = readFileSync(wasmPath)
  const taken = new Set(glue.match(/[A-Za-z_$][\w$]*/g))
  const fresh = (base) => {
    let name = base
    for (let n = 1; taken.has(name); n++) name = `${base}_${n}`
    taken.add(name)
    return name
  }

  const fields = new Map()
  for (const [full, base] of glue.matchAll(HASHED)) {
    if (!fields.has(full)) fields.set(full, fresh(`__wbg_${base}`))
  }
  glue = glue.replace(HASHED, (full) => fields.get(full))

  // Import modules are keys of the glue's imports object: `"./toolnexus_bg.js": import0,`.
  const modules = new Map()
  for (const [, module] of glue.matchAll(/^\s*"([^"]+)": import\d+,?$/gm)) {
    if (!modules.has(module)) modules.set(module, module === "./toolnexus_bg.js" ? "w" : `s${modules.size}`)
  }
  glue = glue.replace(/^(\s*)"([^"]+)": (import\d+)/gm, (line, space, module, value) =>
    modules.has(module) ? `${space}"${modules.get(module)}": ${value}` : line,
  )

  // Exports, where the glue reaches every use of them as `wasm.<name>`.
  const exports = new Map()
  for (const name of exportNames(wasm)) {
    if (new RegExp(`\\bwasm\\.${escape(name)}(?![\\w$])`).test(glue)) exports.set(name, `e${exports.size.toString(36)}`)
  }
  glue = glue.replace(/\bwasm\.([A-Za-z_$][\w$]*)/g, (use, name) => (exports.has(name) ? `wasm.${exports.get(name)}` : use))

  writeFileSync(wasmPath, renameNames(wasm, { modules, fields, exports }))
  writeFileSync(gluePath, glue)
  if (existsSync(typingsPath)) {
    const typings = readFileSync(typingsPath, "utf8")
    writeFileSync(typingsPath, typings.replace(/\b(export const )([A-Za-z_$][\w$]*)/g, (line, head, name) => head + (exports.get(name) ?? name)))
  }
  console.log(`[short-names] ${dir}: ${fields.size} imports, ${modules.size} import modules, ${exports.size} exports renamed`)
}
