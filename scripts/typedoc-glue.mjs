// typedoc plugin (typedoc.json "plugin"): documents what wasm-bindgen writes into the glue's
// .d.ts without a doc comment, so `npm run docs` can require one on everything else. It gives
// `free()` and `[Symbol.dispose]()` of every exported class, and the init types of the web
// build (`InitInput`, `SyncInitInput`, `InitOutput`), a fixed comment, and leaves out
// `InitOutput`'s members (the module's raw exports, named and hashed by wasm-bindgen).
import { Comment, Converter, ReflectionKind } from "typedoc"

const generated = {
  free: "Frees the object's memory in the WebAssembly module now, instead of when it is garbage-collected. The object cannot be used afterwards.",
  "[dispose]": "Same as `free()`, for `using` declarations.",
  InitInput: "What the web build's `init` loads the module from: a URL, a `Response`, the bytes, or a compiled `WebAssembly.Module`.",
  SyncInitInput: "What `initSync` instantiates the module from: the bytes or a compiled `WebAssembly.Module`.",
  InitOutput: "The instantiated module's raw exports, as `init` and `initSync` return them. Use the package's named exports instead.",
}

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const project = context.project
    for (const reflection of Object.values(project.reflections)) {
      const text = generated[reflection.name]
      if (text === undefined || reflection.hasComment()) continue
      const target = reflection.signatures?.[0] ?? reflection
      if (target.hasComment()) continue
      target.comment = new Comment([{ kind: "text", text }])
      if (reflection.name === "InitOutput" && reflection.kindOf(ReflectionKind.Interface)) {
        for (const child of [...(reflection.children ?? [])]) project.removeReflection(child)
      }
    }
  })
}
