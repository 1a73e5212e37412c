// Where the toolnexus contenders load the package from: pkg/ (the built npm package), or the
// directory in TOOLNEXUS_PKG (a build variant laid out like pkg/, see bench/tools/build-variant.sh).
import path from "node:path"
import { existsSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"

const dir = process.env.TOOLNEXUS_PKG
  ? pathToFileURL(path.resolve(process.env.TOOLNEXUS_PKG) + path.sep)
  : new URL("../../pkg/", import.meta.url)

export const pkgUrl = (file) => new URL(file, dir).href

/**
 * The glue and module Node's ESM entry (`<build>node.mjs`) loads: the speed build
 * (`node-esm/toolnexus.js` with `node/toolnexus_bg.wasm`) since the package has one, else
 * (an older commit's build) the web build. `build` is "" (full) or "core/".
 */
export function nodeBuild(build) {
  const speed = existsSync(fileURLToPath(pkgUrl(`${build}node-esm/toolnexus.js`)))
  return speed
    ? { glue: pkgUrl(`${build}node-esm/toolnexus.js`), wasm: pkgUrl(`${build}node/toolnexus_bg.wasm`) }
    : { glue: pkgUrl(`${build}web/toolnexus.js`), wasm: pkgUrl(`${build}web/toolnexus_bg.wasm`) }
}
