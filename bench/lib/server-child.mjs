// A bench's server in a child process of its own: `script --child=<task>` prints one JSON line
// `{url}` once it listens and serves until SIGTERM. Used by mcp-client.mjs and serving.mjs.
import { spawn } from "node:child_process"

/**
 * Starts `script` as a server child for `task` (its `role` is set to "server"); resolves with
 * `{url, stop()}` once the child printed its URL. `label` names it in the error of a child
 * that exits before it listens.
 * @example const { url, stop } = await startServerChild(fileURLToPath(import.meta.url), { server: "v2" }, "v2")
 */
export function startServerChild(script, task, label) {
  const arg = Buffer.from(JSON.stringify({ role: "server", ...task })).toString("base64url")
  const child = spawn(process.execPath, [script, `--child=${arg}`], { stdio: ["ignore", "pipe", "inherit"] })
  return new Promise((resolve, reject) => {
    let out = ""
    child.stdout.on("data", (c) => {
      out += c
      const line = out.split("\n").find((l) => l.startsWith("{"))
      if (line) resolve({ url: JSON.parse(line).url, stop: () => child.kill("SIGTERM") })
    })
    child.on("exit", (code) => reject(new Error(`${label} server exited ${code} before listening`)))
  })
}
