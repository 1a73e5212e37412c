// FileTokenStore on Deno's own file system, on the packed package (see run.sh): values
// round-trip, the file is private (0600) and its new directory 0700, a second store reads what
// the first wrote, and a file that is not a token file is refused and left alone.
import { FileTokenStore } from "toolnexus-wasm"

function equal(actual: unknown, expected: unknown) {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)]
  if (a !== e) throw new Error(`expected ${e}, got ${a}`)
}

Deno.test("FileTokenStore keeps JSON text per key in a private file on Deno", async () => {
  const dir = await Deno.makeTempDir()
  try {
    const path = `${dir}/nested/tokens.json`
    const store = new FileTokenStore(path)
    equal(await store.get("tokens:a"), undefined)
    await store.set("tokens:a", '{"access_token":"at-deno-secret"}')
    await store.set("client:a", '{"client_id":"c"}')
    await store.delete("client:a")
    equal(await new FileTokenStore(path).get("tokens:a"), '{"access_token":"at-deno-secret"}')
    equal(await store.get("client:a"), undefined)
    equal((await Deno.stat(path)).mode! & 0o777, 0o600)
    equal((await Deno.stat(`${dir}/nested`)).mode! & 0o777, 0o700)
    equal([...Deno.readDirSync(`${dir}/nested`)].map((e) => e.name), ["tokens.json"])

    const bad = `${dir}/bad.json`
    await Deno.writeTextFile(bad, "[1, 2]")
    let refused: { code?: string; message?: string } = {}
    await new FileTokenStore(bad).set("k", '"v"').catch((e) => (refused = e))
    equal(refused.code, "store")
    equal(await Deno.readTextFile(bad), "[1, 2]")
  } finally {
    await Deno.remove(dir, { recursive: true })
  }
})
