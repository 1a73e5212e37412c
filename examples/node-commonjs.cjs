// @ts-check
// The same package from CommonJS. Run: node examples/node-commonjs.cjs
const { createToolkit, defineTool } = require("toolnexus-wasm")

const add = defineTool({
  name: "add",
  description: "Adds two numbers",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  run: (args) => String(Number(args.a) + Number(args.b)),
})

createToolkit({ extraTools: [add] })
  .then((toolkit) => toolkit.execute("add", { a: 2, b: 3 }))
  .then((result) => console.log(result.output))
