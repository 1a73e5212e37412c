// survival.test.mjs against the lean build, toolnexus-wasm/core: its own module instance must
// survive the same bad inputs (the options of the sources it lacks are refused, not fatal).
process.env.TOOLNEXUS_BUILD = "core"
await import("./survival.test.mjs")
