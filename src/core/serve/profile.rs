//! The records of the serve profiles, in both builds: the lean build's `Toolkit` declares
//! `handler` and `serve` (and refuses them), so their option types are the lean typings'.

crate::record! {
    /// The MCP serve profile: what `initialize` advertises and which tools are exposed.
    #[derive(Default)]
    pub struct McpServeConfig as "struct MCPServeConfig" {
        /// Advertised server name (`serverInfo.name`); default `"toolnexus"`.
        pub name: Option<String> = "name",
        /// Advertised server version (`serverInfo.version`); default `"0.1.0"`.
        pub version: Option<String> = "version",
        /// The tool names to expose; absent exposes every tool. Unknown names are ignored.
        pub tools: Option<Vec<String>> = "tools",
    }
}

crate::record! {
    /// What `onCall` receives after each `tools/call` (the result's `metadata` stays here,
    /// off the MCP wire).
    pub struct OnCallEvent as "struct OnCallEvent" {
        /// The tool's name.
        pub name: String = "name",
        /// The tool's source (`"native"`, `"mcp"`, `"builtin"`, …).
        pub source: String = "source" as "ToolSource",
        /// How long the call took, in milliseconds.
        pub ms: f64 = "ms",
        /// Whether the call failed (or suspended).
        pub is_error: bool = "isError",
    }
}
