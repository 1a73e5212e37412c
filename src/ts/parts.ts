// The content-part constructors (SPEC §1B), in the full build: an image, a file or an audio
// clip as a part a prompt or a tool result can carry. Each reads and base64-encodes its source
// at once (the module checks and types the part; the platform's encoder, where there is one,
// encodes), so a part is bytes or a URL, never a path or a handle, and survives a stored
// transcript.
import * as module from "#glue-full"
import { ToolnexusError } from "../js/errors.js"
import { checked } from "./core/instance.js"
import type { ContentPart, PartOptions, PartSource } from "./types.js"

const glue = checked(module)

/** A source's kind, for an error message (`a number`, `an object`, `null`). */
function described(value: unknown): string {
  if (value === null) return "null"
  const kind = Array.isArray(value) ? "array" : typeof value
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`
}

function isBlob(value: unknown): value is Blob {
  return typeof Blob === "function" && value instanceof Blob
}

/**
 * The platform's own base64 encoder when it has one (`Uint8Array.prototype.toBase64` in current
 * browsers and Deno, `Buffer` in Node): many times faster than encoding inside the module, and
 * the bytes never cross into it. Without one, the module encodes (one copy of the bytes in).
 */
const platformBase64: ((bytes: Uint8Array) => string) | undefined = (() => {
  const view = Uint8Array.prototype as Uint8Array & { toBase64?: () => string }
  if (typeof view.toBase64 === "function") return (bytes: Uint8Array) => (bytes as typeof view).toBase64!()
  type NodeBuffer = { from(buffer: ArrayBufferLike, offset: number, length: number): { toString(encoding: "base64"): string } }
  const buffer = (globalThis as { Buffer?: NodeBuffer }).Buffer
  if (typeof buffer?.from === "function") return (bytes: Uint8Array) => buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")
  return undefined
})()

/** A part of `kind` holding `bytes`: checked and typed by the module, encoded by the platform when it can. */
function fromBytes(kind: "image" | "file" | "audio", bytes: Uint8Array, fileName: string | undefined, options?: PartOptions): ContentPart {
  if (platformBase64 === undefined) return glue.__makePart(kind, bytes, fileName, options)
  const made = glue.__makePart(kind, bytes.byteLength, fileName, options)
  const part: ContentPart = { type: made.type, mimeType: made.mimeType, data: platformBase64(bytes) }
  if (made.name !== undefined) part.name = made.name
  return part
}

/** One part of `kind` from `source`: a promise for a Blob (read asynchronously), else at once. */
function build(kind: "image" | "file" | "audio", source: PartSource | Blob, options?: PartOptions): ContentPart | Promise<ContentPart> {
  if (isBlob(source)) {
    // A File's name names the part; a Blob's own type wins over the extension table.
    const fileName = typeof (source as File).name === "string" ? (source as File).name : undefined
    const withType = options?.mimeType || !source.type ? options : { ...options, mimeType: source.type }
    return source.arrayBuffer().then((bytes) => fromBytes(kind, new Uint8Array(bytes), fileName, withType))
  }
  if (source instanceof ArrayBuffer) return fromBytes(kind, new Uint8Array(source), undefined, options)
  if (ArrayBuffer.isView(source)) {
    const bytes = new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
    return fromBytes(kind, bytes, undefined, options)
  }
  if (typeof source !== "string" || source === "") {
    const message = `${kind}: expected a Blob or File, bytes, a data: or https: URL, or (Node, Deno) a path, got ${described(source)}`
    throw new ToolnexusError("invalid_part", message)
  }
  // A URL (any scheme: the module refuses all but data:, http: and https:), else a path.
  if (/^[a-z][a-z0-9+.-]*:/i.test(source) && !/^[a-z]:[\\/]/i.test(source)) return glue.__makePart(kind, source, undefined, options)
  const readBytes = module.readBytes
  if (readBytes === undefined) {
    const message = `${kind}: "${source}" is a path, and reading a path needs Node or Deno: pass a File, bytes or a URL`
    throw new ToolnexusError("unsupported", message)
  }
  let bytes: Uint8Array
  try {
    bytes = readBytes(source)
  } catch (e) {
    throw new ToolnexusError("invalid_part", `${kind}: cannot read "${source}": ${e instanceof Error ? e.message : String(e)}`, { cause: e })
  }
  return fromBytes(kind, bytes, source.split(/[\\/]/).pop(), options)
}

/**
 * An image part: from a `File` or `Blob` (a promise: it is read asynchronously; its `type`, else
 * its name's extension, gives the MIME type), bytes (`Uint8Array`, `ArrayBuffer`: pass
 * `mimeType`), a `data:` URL, an `https:` URL (kept as a URL, never fetched), or in Node and
 * Deno a path (read now). Extensions: png, jpg/jpeg, gif, webp. A bad source, an unknown
 * extension without `mimeType`, or a part over `maxPartBytes` throws `invalid_part`.
 *
 * ```js
 * const shot = await image(input.files[0])
 * await client.run(["What is in this picture?", shot], { toolkit })
 * const logo = image("https://example.com/logo.png")
 * ```
 */
export function image(source: Blob, options?: PartOptions): Promise<ContentPart>
export function image(source: PartSource, options?: PartOptions): ContentPart
export function image(source: PartSource | Blob, options?: PartOptions): ContentPart | Promise<ContentPart> {
  return build("image", source, options)
}

/**
 * A file (document) part, such as a PDF: the same sources as {@link image}.
 *
 * ```js
 * const report = await file(droppedFile, { maxPartBytes: 10_000_000 })
 * ```
 */
export function file(source: Blob, options?: PartOptions): Promise<ContentPart>
export function file(source: PartSource, options?: PartOptions): ContentPart
export function file(source: PartSource | Blob, options?: PartOptions): ContentPart | Promise<ContentPart> {
  return build("file", source, options)
}

/**
 * An audio part (mp3, wav): the same sources as {@link image}.
 *
 * ```js
 * const clip = audio(bytes, { mimeType: "audio/wav" })
 * ```
 */
export function audio(source: Blob, options?: PartOptions): Promise<ContentPart>
export function audio(source: PartSource, options?: PartOptions): ContentPart
export function audio(source: PartSource | Blob, options?: PartOptions): ContentPart | Promise<ContentPart> {
  return build("audio", source, options)
}

/**
 * A part from its fields, checked: a text part has `text`; an image, file or audio part a
 * `mimeType` and exactly one of `data` (standard base64) and `url` (`http(s):`). Otherwise it
 * throws `invalid_part` naming what is wrong.
 *
 * ```js
 * part({ type: "image", mimeType: "image/png", data: base64 })
 * ```
 */
export function part(fields: ContentPart): ContentPart {
  return glue.__checkPart(fields)
}

/**
 * A text part.
 *
 * ```js
 * await client.run([text("Compare these:"), await image(a), await image(b)], { toolkit })
 * ```
 */
export function text(value: string): ContentPart {
  if (typeof value !== "string") throw new ToolnexusError("invalid_part", `text: expected a string, got ${described(value)}`)
  return { type: "text", text: value }
}
