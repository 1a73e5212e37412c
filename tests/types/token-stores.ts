// Type tests of the OAuth token stores: IndexedDbTokenStore, FileTokenStore and a store of
// one's own against the TokenStore interface.
import { FileTokenStore, IndexedDbTokenStore, type TokenStore } from "toolnexus-wasm"

async function stores(): Promise<void> {
  const idb = new IndexedDbTokenStore("auth", null)
  const dbName: string = idb.dbName
  const read: string | undefined = await idb.get("tokens:x")
  await idb.set("tokens:x", JSON.stringify({ access_token: "t" }))
  await idb.delete("tokens:x")
  idb.close()
  const file = new FileTokenStore("/tmp/tokens.json")
  const path: string = file.path
  const asInterface: TokenStore[] = [idb, file]
  // A synchronous store of one's own fits too.
  const map = new Map<string, string>()
  const mine: TokenStore = { get: (k) => map.get(k), set: (k, v) => void map.set(k, v), delete: (k) => void map.delete(k) }
  // @ts-expect-error values are JSON text, not objects
  await file.set("k", { access_token: "t" })
  // @ts-expect-error a FileTokenStore needs a path
  new FileTokenStore()
  void [dbName, read, path, asInterface, mine]
}
void stores
