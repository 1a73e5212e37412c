// Reading a request's body under a size cap, chunk by chunk: a body larger than the cap is
// refused after at most the cap and one chunk have been read, never buffered whole (and a
// `Content-Length` over the cap is refused before anything is read). Used by the A2A profile.

/** The default cap of a JSON-RPC request body: 1 MiB, far above any text task. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/**
 * The body of `request` as text, or `{tooLarge: bytesSeen}` when it is (or declares itself)
 * larger than `maxBytes`; the rest of a refused body is never read (its stream is cancelled).
 *
 * ```js
 * const read = await readBodyText(request, 1024)
 * if (typeof read !== "string") return new Response("too large", { status: 413 })
 * ```
 */
export async function readBodyText(request, maxBytes) {
  const declared = Number(request.headers.get("content-length"))
  if (Number.isFinite(declared) && declared > maxBytes) return { tooLarge: declared }
  if (request.body === null) return ""
  const reader = request.body.getReader()
  const chunks = []
  let size = 0
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      reader.cancel("the body is over the size cap").catch(() => {})
      return { tooLarge: size }
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return new TextDecoder().decode(bytes)
}
