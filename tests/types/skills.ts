// Type tests of skills and HTTP tools: compiled by `tsc --noEmit --strict`.
import {
  createToolkit,
  httpTool,
  listSkills,
  MemoryFileSystem,
  type SkillDef,
  type SkillInfo,
  type SkillInventory,
  type SkillSkipReason,
  type HttpToolOptions,
  type Tool,
  type Toolkit,
} from "toolnexus-wasm"

const defs: SkillDef[] = [{ name: "pdf", description: "Reads PDFs", content: "Use pdftotext.", resources: ["a.md"], base: "skill://pdf/" }]

export async function skills(): Promise<string> {
  const toolkit: Toolkit = await createToolkit({
    skills: defs,
    skillProvider: async () => [{ name: "late", content: "x" }],
    skillsDir: ["./skills"],
    skillsFilter: { pdf: true },
    disableSkills: ["late"],
    skillSampleLimit: -1,
    fs: new MemoryFileSystem({}),
  })
  const inventory: SkillInventory = await listSkills({ dirs: "./skills", skills: defs })
  const fromDirs: SkillInventory = await listSkills(["./a", "./b"])
  const first: SkillInfo | undefined = inventory.skills[0]
  const origin: "fs" | "logical" | undefined = first?.origin
  const reasons: SkillSkipReason[] = fromDirs.skipped.map((s) => s.reason)
  // @ts-expect-error skillSampleLimit is a number
  await createToolkit({ skillSampleLimit: "10" })
  // @ts-expect-error content is a string
  const noContent: SkillDef = { name: "x", content: 5 }
  return `${toolkit.skillsPrompt()} ${origin} ${reasons.join()} ${noContent.name}`
}

const options: HttpToolOptions = {
  name: "get_issue",
  method: "GET",
  url: "https://api.test/issues/{id}",
  headers: { Authorization: "Bearer ${TOKEN}" },
  query: ["page"],
  body: "json",
  inputSchema: { type: "object", properties: { id: { type: "string" } } },
  timeout: 5000,
  resultMode: "status+text",
  env: { TOKEN: "t" },
}
export const issue: Tool = httpTool(options)
// @ts-expect-error body must be json | form | raw
httpTool({ ...options, body: "xml" })
// @ts-expect-error method is required
httpTool({ name: "x", url: "u" })
