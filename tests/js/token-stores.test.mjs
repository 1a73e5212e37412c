// FileTokenStore on Node's file system: values round-trip as JSON text, the file is private
// (0600, its new directory 0700) and stays so when it was left wider open, a second store (or a
// new process) over the same file reads what the first wrote, concurrent sets in one process
// all land, a file that is not a token file is refused and left alone, and no error quotes a
// value or a key. IndexedDbTokenStore is refused where there is no IndexedDB; its browser
// behaviour is tests/e2e/token-store.test.mjs.
import { after, describe, test } from "node:test"
import assert from "node:assert/strict"
import { execFile } from "node:child_process"
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { FileTokenStore, IndexedDbTokenStore } from "toolnexus-wasm"
import { assertCode, rejection, thrown } from "./support/helpers.mjs"

const dir = mkdtempSync(join(tmpdir(), "toolnexus-tokens-"))
after(() => rmSync(dir, { recursive: true, force: true }))

const SECRET = JSON.stringify({ access_token: "at-very-secret-1", refresh_token: "rt-very-secret-2", expires_at: 1_900_000_000 })
const mode = (path) => statSync(path).mode & 0o777

describe("FileTokenStore", () => {
  test("round-trips JSON text per key in a 0600 file, in a 0700 directory it makes", async () => {
    const path = join(dir, "made", "deeper", "tokens.json")
    const store = new FileTokenStore(path)
    assert.equal(store.path, path)
    assert.equal(await store.get("tokens:https://as.example|https://mcp.example/mcp"), undefined, "no file yet: nothing stored")
    await store.set("tokens:https://as.example|https://mcp.example/mcp", SECRET)
    await store.set("client:https://as.example", '{"client_id":"abc"}')
    await store.set("__proto__", '"an ordinary key"')
    assert.equal(await store.get("tokens:https://as.example|https://mcp.example/mcp"), SECRET)
    assert.equal(await store.get("client:https://as.example"), '{"client_id":"abc"}')
    assert.equal(await store.get("__proto__"), '"an ordinary key"')
    assert.equal(await store.get("toString"), undefined, "an inherited name is not a stored key")
    assert.equal(mode(path), 0o600)
    assert.equal(mode(join(dir, "made")), 0o700)
    assert.equal(mode(join(dir, "made", "deeper")), 0o700)
    assert.deepEqual(JSON.parse(readFileSync(path, "utf8")), {
      "tokens:https://as.example|https://mcp.example/mcp": SECRET,
      "client:https://as.example": '{"client_id":"abc"}',
      ["__proto__"]: '"an ordinary key"',
    })
    await store.delete("client:https://as.example")
    await store.delete("never-stored")
    assert.equal(await store.get("client:https://as.example"), undefined)
    assert.deepEqual(readdirSync(join(dir, "made", "deeper")), ["tokens.json"], "no temporary file is left behind")
  })

  test("a file left readable by others is replaced by a private one on the next write", async () => {
    const path = join(dir, "open.json")
    writeFileSync(path, JSON.stringify({ kept: '"yes"' }))
    chmodSync(path, 0o644)
    const store = new FileTokenStore(path)
    assert.equal(await store.get("kept"), '"yes"')
    await store.set("new", '"value"')
    assert.equal(mode(path), 0o600)
    assert.equal(await store.get("kept"), '"yes"')
  })

  test("another store, and another process, over the same file read what was written", async () => {
    const path = join(dir, "shared.json")
    await new FileTokenStore(path).set("flow:abc", '{"verifier":"v-secret"}')
    assert.equal(await new FileTokenStore(path).get("flow:abc"), '{"verifier":"v-secret"}')
    const script = `import { FileTokenStore } from "toolnexus-wasm"
      const store = new FileTokenStore(${JSON.stringify(path)})
      const read = await store.get("flow:abc")
      await store.set("from-child", '"child"')
      console.log(read)`
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script])
    assert.equal(stdout.trim(), '{"verifier":"v-secret"}')
    assert.equal(await new FileTokenStore(path).get("from-child"), '"child"')
  })

  test("concurrent sets and deletes in one process all land, through one store or several", async () => {
    const path = join(dir, "busy.json")
    const stores = [new FileTokenStore(path), new FileTokenStore(path), new FileTokenStore(path)]
    await Promise.all(Array.from({ length: 30 }, (_, i) => stores[i % 3].set(`k${i}`, JSON.stringify(i))))
    await Promise.all(Array.from({ length: 10 }, (_, i) => stores[(i + 1) % 3].delete(`k${i * 3}`)))
    const read = JSON.parse(readFileSync(path, "utf8"))
    const expected = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, JSON.stringify(i)]).filter((_, i) => i % 3 !== 0))
    assert.deepEqual(read, expected)
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith("busy.json.")), [], "no temporary file is left behind")
  })

  test("a file that is not a token file is refused, never overwritten, and no message quotes it", async () => {
    for (const [name, text] of [
      ["garbage.json", `not json ${SECRET}`],
      ["array.json", JSON.stringify([SECRET])],
      ["numbers.json", JSON.stringify({ k: 1, secret: SECRET })],
    ]) {
      const path = join(dir, name)
      writeFileSync(path, text)
      const store = new FileTokenStore(path)
      for (const error of [await rejection(store.get("k")), await rejection(store.set("k", '"v"')), await rejection(store.delete("k"))]) {
        assertCode(error, "store")
        assert.equal(error.message, `FileTokenStore: ${path} is not a token file (a JSON object of strings); move it away or choose another path`)
      }
      assert.equal(readFileSync(path, "utf8"), text, `${name} is left as it was`)
    }
  })

  test("bad arguments are refused with invalid_argument or invalid_options, naming no value", async () => {
    const store = new FileTokenStore(join(dir, "args.json"))
    const set = assertCode(await rejection(store.set("tokens:x", { access_token: "at-very-secret-1" })), "invalid_argument")
    assert.equal(set.message, "FileTokenStore.set: value must be a string (JSON text), got object")
    assert.equal(assertCode(await rejection(store.get(42)), "invalid_argument").message, "FileTokenStore.get: key must be a string, got number")
    assert.equal(assertCode(await rejection(store.delete(null)), "invalid_argument").message, "FileTokenStore.delete: key must be a string, got null")
    assert.equal(assertCode(thrown(() => new FileTokenStore("")), "invalid_options").message, "FileTokenStore: path must be a non-empty string, got string")
    assert.equal(assertCode(thrown(() => new FileTokenStore()), "invalid_options").message, "FileTokenStore: path must be a non-empty string, got undefined")
  })

  test("a path it cannot write is a store error naming the path, and nothing is left behind", async () => {
    const blocker = join(dir, "a-file")
    writeFileSync(blocker, "")
    const store = new FileTokenStore(join(blocker, "tokens.json"))
    const error = assertCode(await rejection(store.set("k", SECRET)), "store")
    assert.match(error.message, /^FileTokenStore: (reading|writing) .*a-file\/tokens\.json failed: ENOTDIR/)
    assert.ok(!error.message.includes("at-very-secret"), error.message)
  })
})

test("IndexedDbTokenStore where there is no IndexedDB: unsupported, pointing to FileTokenStore", () => {
  const error = assertCode(thrown(() => new IndexedDbTokenStore()), "unsupported")
  assert.equal(
    error.message,
    "IndexedDbTokenStore: IndexedDB is not available in this runtime (it exists in browsers and their workers, not in Node or Deno): use FileTokenStore, or the default memory store",
  )
})
