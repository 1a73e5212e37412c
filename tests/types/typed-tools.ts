// Type tests of typed tools: `defineTool` infers `args` from a Standard Schema (Zod 4 here) and
// from a JSON Schema written in place; a misspelled property fails to compile.
import { z } from "zod"
import { defineTool, type JSONSchema } from "toolnexus-wasm"

defineTool({
  name: "weather",
  description: "Weather for a city",
  inputSchema: z.object({ city: z.string(), unit: z.enum(["C", "F"]).default("C") }),
  run: ({ city, unit }) => {
    const upper: string = city.toUpperCase()
    const u: "C" | "F" = unit
    return `${upper} ${u}`
  },
})

defineTool({
  name: "weather_typo",
  inputSchema: z.object({ city: z.string() }),
  run: (args) => {
    // @ts-expect-error a Zod object has no such property
    return args.ctiy
  },
})

defineTool({
  name: "time",
  inputSchema: { type: "object", properties: { zone: { type: "string" }, hours: { type: "integer" } }, required: ["zone"], additionalProperties: false },
  run: (args) => {
    const zone: string = args.zone
    const hours: number | undefined = args.hours
    // @ts-expect-error a schema with additionalProperties: false has no such property
    args.zoen
    return `${zone} ${hours ?? 0}`
  },
})

defineTool({
  name: "open_schema",
  inputSchema: { type: "object", properties: { zone: { type: "string" } } },
  run: (args) => {
    const zone: string | undefined = args.zone
    // @ts-expect-error an extra key of an open schema is unknown, not a string
    const typo: string = args.zoen
    return `${zone} ${typo}`
  },
})

// A schema not written in place (its type is the wide JSONSchema): arguments are a plain record.
const wide: JSONSchema = { type: "object", properties: { q: { type: "string" } } }
defineTool({
  name: "wide",
  inputSchema: wide,
  run: (args) => {
    const record: Record<string, unknown> = args
    return JSON.stringify(record)
  },
})

// No schema at all: the reference's default, arguments a plain record.
defineTool({ name: "bare", run: (args) => Object.keys(args).join(",") })

// A Standard Schema with a JSON Schema given beside it.
defineTool({
  name: "given",
  inputSchema: z.object({ n: z.number() }),
  jsonSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  run: ({ n }) => n * 2,
})
