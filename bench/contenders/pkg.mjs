// Where the toolnexus contenders load the package from: pkg/ (the built npm package), or the
// directory in TOOLNEXUS_PKG (a build variant laid out like pkg/, see bench/tools/build-variant.sh).
import path from "node:path"
import { pathToFileURL } from "node:url"

const dir = process.env.TOOLNEXUS_PKG
  ? pathToFileURL(path.resolve(process.env.TOOLNEXUS_PKG) + path.sep)
  : new URL("../../pkg/", import.meta.url)

export const pkgUrl = (file) => new URL(file, dir).href
