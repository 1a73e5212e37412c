// An agent turn on the in-memory filesystem: a scripted in-process model writes a file, reads
// it back and edits it through the built-in tools; the page shows every file and keeps them in
// localStorage, so they are still there after a reload.
import { createInProcessClient, createToolkit, MemoryFileSystem } from "/pkg/index.js"

const $ = (selector) => document.querySelector(selector)
const STORAGE_KEY = "toolnexus-files-demo"

function loadFiles() {
  const saved = localStorage.getItem(STORAGE_KEY)
  if (!saved) return new MemoryFileSystem()
  try {
    return MemoryFileSystem.fromJSON(JSON.parse(saved))
  } catch {
    return new MemoryFileSystem()
  }
}

let files = loadFiles()
let toolkit = await createToolkit({ fs: files, builtins: { tools: { webfetch: false } } })

/** The scripted model: write → read → edit → answer, from the tool results it has seen. */
async function generate({ messages }) {
  const user = messages.findLast((m) => m.role === "user")
  const done = messages.slice(messages.lastIndexOf(user)).filter((m) => m.role === "tool")
  const { path, task } = JSON.parse(user.content)
  const plan = `# Plan\n\n- [ ] ${task}\n- [ ] tell the team\n`
  switch (done.length) {
    case 0:
      return { toolCalls: [{ id: "w1", name: "write", arguments: { path, content: plan } }] }
    case 1:
      return { toolCalls: [{ id: "r1", name: "read", arguments: { path } }] }
    case 2:
      return { toolCalls: [{ id: "e1", name: "edit", arguments: { path, oldString: `- [ ] ${task}`, newString: `- [x] ${task}` } }] }
    default:
      return { content: `Done: ${path} now marks "${task}" as finished (${done.at(-1).content}).` }
  }
}

const client = createInProcessClient({ model: "scripted-files", generate })

function showFiles() {
  const paths = files.files()
  $("#file-count").textContent = `(${paths.length})`
  const box = $("#files")
  box.replaceChildren()
  if (paths.length === 0) {
    box.innerHTML = '<p class="muted">No files yet.</p>'
    return
  }
  for (const path of paths) {
    const item = document.createElement("article")
    item.className = "file"
    item.dataset.path = path
    const name = document.createElement("h3")
    name.textContent = path
    const body = document.createElement("pre")
    body.className = "code"
    body.textContent = files.readFile(path)
    item.append(name, body)
    box.append(item)
  }
}

function save() {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(files))
}

function showCalls(toolCalls) {
  $("#calls").replaceChildren(
    ...toolCalls.map((call) => {
      const li = document.createElement("li")
      li.dataset.tool = call.name
      li.dataset.error = String(call.isError)
      li.textContent = `${call.name}: ${call.output.split("\n")[0]}`
      return li
    }),
  )
}

$("#ask-form").addEventListener("submit", async (event) => {
  event.preventDefault()
  $("#ask").disabled = true
  $("#answer").dataset.state = "running"
  $("#answer").textContent = "Working…"
  try {
    const prompt = JSON.stringify({ path: $("#path").value, task: $("#task").value })
    const result = await client.run(prompt, { toolkit })
    showCalls(result.toolCalls)
    save()
    showFiles()
    $("#answer").dataset.state = result.status
    $("#answer").textContent = result.text
  } catch (error) {
    $("#answer").dataset.state = "error"
    $("#answer").textContent = `${error.code ?? "error"}: ${error.message}`
  } finally {
    $("#ask").disabled = false
  }
})

$("#reset").addEventListener("click", async () => {
  localStorage.removeItem(STORAGE_KEY)
  files = new MemoryFileSystem()
  toolkit = await createToolkit({ fs: files, builtins: { tools: { webfetch: false } } })
  showCalls([])
  showFiles()
})

showFiles()
$("#status").dataset.state = "ready"
$("#status").textContent = "Ready"
$("#ask").disabled = false
$("#reset").disabled = false
