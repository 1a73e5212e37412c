//! The process launcher local (`command`) servers need. Node and Deno supply one; a browser
//! has none, and a local server there is reported `failed` with the reason.

use crate::core::host::LocalBoxFuture;

/// What to start.
#[derive(Debug, Clone, PartialEq)]
pub struct SpawnSpec {
    /// The program.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Variables added to the environment the host gives children.
    pub env: Vec<(String, String)>,
    /// The working directory; the host's own when `None`.
    pub cwd: Option<String>,
}

/// Starts processes.
///
/// ```
/// use toolnexus::core::mcp::process::{Child, Process, SpawnSpec};
/// struct Nothing;
/// impl Process for Nothing {
///     fn spawn(&self, spec: &SpawnSpec) -> Result<Box<dyn Child>, String> {
///         Err(format!("cannot start {}", spec.command))
///     }
/// }
/// ```
pub trait Process {
    /// Starts `spec`; an error when it cannot even be attempted. A program that does not
    /// exist may instead show up as a child whose output ends at once.
    fn spawn(&self, spec: &SpawnSpec) -> Result<Box<dyn Child>, String>;
}

/// A running child: its stdin, its stdout as lines, and a way to stop it.
pub trait Child {
    /// Writes `text` to stdin.
    fn write(&self, text: &str) -> LocalBoxFuture<'static, Result<(), String>>;
    /// The next line of stdout, without its line end; `None` once stdout has ended. Dropping
    /// the future before it completes loses no line.
    fn next_line(&self) -> LocalBoxFuture<'static, Option<String>>;
    /// Why the output ended (`exited with code 1: <the end of stderr>`), once it has.
    fn exit_reason(&self) -> Option<String>;
    /// Stops the child (and is harmless when it already stopped).
    fn kill(&self);
}
