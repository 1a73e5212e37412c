// The module's one instance, and what runs once it is instantiated. Every entry but `web.js`
// (toolnexus-wasm/web) is handed an instantiated module by its loader; `web.js` waits for the
// host's `initializeWasm`, so a page can serve the `.wasm` from a URL of its choosing.
import * as glue from "#glue"
import { ToolnexusError } from "../../js/errors.js"
import type { WasmSource } from "./types.js"

const waiting: (() => void)[] = []
let instantiated = glue.instantiated

/** Runs `setup` once the module is instantiated: now if it is, else after `initializeWasm`. */
export function whenInstantiated(setup: () => void): void {
  if (instantiated) setup()
  else waiting.push(setup)
}

/** Instantiates the module from `source` (once; later calls do nothing), then runs the setups. */
export async function instantiate(source?: WasmSource): Promise<void> {
  if (instantiated) return
  await glue.instantiate(source)
  instantiated = true
  for (const setup of waiting.splice(0)) setup()
}

/**
 * `module` (the glue), whose functions throw a clear error while the module is not yet
 * instantiated (toolnexus-wasm/web before `initializeWasm`), instead of failing inside the glue.
 * Its classes (capitalised) stay reachable, for the facade's own setup.
 */
export function checked<Module extends object>(module: Module): Module {
  return new Proxy(module, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key)
      if (!instantiated && typeof value === "function" && typeof key === "string" && /^[a-z]/.test(key)) {
        throw new ToolnexusError("unsupported", `${key}: the module is not instantiated yet: \`await initializeWasm(url)\` first (toolnexus-wasm/web)`)
      }
      return value
    },
  })
}
