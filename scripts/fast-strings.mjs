// Rewrites how wasm-bindgen's glue copies a JavaScript string into the module, in place, in
// each directory given (run by scripts/build.sh before the glue is minified):
//   node scripts/fast-strings.mjs pkg-stage/full/web pkg-stage/full/node …
//
// The glue's passStringToWasm0 copies a string one UTF-16 unit at a time in a JavaScript loop
// and only hands the rest to TextEncoder.encodeInto after the first non-ASCII character. On a
// provider's response (the largest string that crosses in a run) that loop is what costs:
// measured on Node 20, 1.3-1.5 µs for a 484-character response against 0.1 µs for encodeInto,
// 70 µs against 1.3 µs for 20,000 characters. The loop stays for short strings (at most
// SHORT units), where a native call's fixed cost is the larger one.
//
// The function replaced must be exactly the one wasm-bindgen 0.2.130 writes (the version is
// pinned in Cargo.toml); any other text stops the build, so a new wasm-bindgen is looked at
// rather than silently left slow or, worse, half rewritten.
import { readFileSync, writeFileSync } from "node:fs"
import path from "node:path"

/** The function as wasm-bindgen 0.2.130 writes it (whitespace as written). */
const GENERATED = `function passStringToWasm0(arg, malloc, realloc) {
    if (realloc === undefined) {
        const buf = cachedTextEncoder.encode(arg);
        const ptr = malloc(buf.length, 1) >>> 0;
        getUint8ArrayMemory0().subarray(ptr, ptr + buf.length).set(buf);
        WASM_VECTOR_LEN = buf.length;
        return ptr;
    }

    let len = arg.length;
    let ptr = malloc(len, 1) >>> 0;

    const mem = getUint8ArrayMemory0();

    let offset = 0;

    for (; offset < len; offset++) {
        const code = arg.charCodeAt(offset);
        if (code > 0x7F) break;
        mem[ptr + offset] = code;
    }
    if (offset !== len) {
        if (offset !== 0) {
            arg = arg.slice(offset);
        }
        ptr = realloc(ptr, len, len = offset + arg.length * 3, 1) >>> 0;
        const view = getUint8ArrayMemory0().subarray(ptr + offset, ptr + len);
        const ret = cachedTextEncoder.encodeInto(arg, view);

        offset += ret.written;
        ptr = realloc(ptr, len, offset, 1) >>> 0;
    }

    WASM_VECTOR_LEN = offset;
    return ptr;
}`

/**
 * The same contract (a UTF-8 copy in memory from `malloc`, its length in WASM_VECTOR_LEN, lone
 * surrogates as U+FFFD), with encodeInto from the start for strings longer than SHORT. A string
 * of `len` units takes at least `len` bytes, so a first pass into `len` bytes that reads every
 * unit wrote exactly `len`; otherwise what is left needs at most 3 bytes a unit.
 */
const FAST = `const SHORT_STRING_UNITS = 32;
function passStringToWasm0(arg, malloc, realloc) {
    if (realloc === undefined) {
        const buf = cachedTextEncoder.encode(arg);
        const ptr = malloc(buf.length, 1) >>> 0;
        getUint8ArrayMemory0().subarray(ptr, ptr + buf.length).set(buf);
        WASM_VECTOR_LEN = buf.length;
        return ptr;
    }
    let len = arg.length;
    let ptr = malloc(len, 1) >>> 0;
    let offset = 0;
    if (len <= SHORT_STRING_UNITS) {
        const mem = getUint8ArrayMemory0();
        for (; offset < len; offset++) {
            const code = arg.charCodeAt(offset);
            if (code > 0x7F) break;
            mem[ptr + offset] = code;
        }
        if (offset === len) {
            WASM_VECTOR_LEN = len;
            return ptr;
        }
        arg = arg.slice(offset);
    } else {
        const first = cachedTextEncoder.encodeInto(arg, getUint8ArrayMemory0().subarray(ptr, ptr + len));
        if (first.read === len) {
            WASM_VECTOR_LEN = len;
            return ptr;
        }
        offset = first.written;
        arg = arg.slice(first.read);
    }
    ptr = realloc(ptr, len, len = offset + arg.length * 3, 1) >>> 0;
    const rest = cachedTextEncoder.encodeInto(arg, getUint8ArrayMemory0().subarray(ptr + offset, ptr + len));
    offset += rest.written;
    ptr = realloc(ptr, len, offset, 1) >>> 0;
    WASM_VECTOR_LEN = offset;
    return ptr;
}`

for (const dir of process.argv.slice(2)) {
  const file = path.join(dir, "toolnexus.js")
  const source = readFileSync(file, "utf8")
  const at = source.indexOf(GENERATED)
  if (at === -1 || source.indexOf(GENERATED, at + 1) !== -1) {
    console.error(
      `fast-strings: ${file} does not hold wasm-bindgen 0.2.130's passStringToWasm0 exactly once;` +
        " a new wasm-bindgen writes it differently: compare and update scripts/fast-strings.mjs",
    )
    process.exit(1)
  }
  writeFileSync(file, source.slice(0, at) + FAST + source.slice(at + GENERATED.length))
}
