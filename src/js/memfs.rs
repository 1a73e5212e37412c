//! `MemoryFileSystem`: the in-memory filesystem as a JS class, so a page can fill it, read it,
//! and persist it with `toJSON()` / `MemoryFileSystem.fromJSON(saved)`.

use crate::core::names::Names;
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

use super::convert::{from_json, get, js_error, to_json};
use crate::core::fs::{EntryKind, FsError, MemoryFs};

thread_local! {
    /// Live instances by id, so `createToolkit({fs})` can use one's core filesystem directly.
    static LIVE: RefCell<Names<MemoryFs, u32>> = RefCell::new(Names::default());
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

/// The core filesystem of a `MemoryFileSystem` instance, if `value` is one.
pub fn core_memory_fs(value: &JsValue) -> Option<MemoryFs> {
    let id = get(value, "__toolnexusMemoryFsId").as_f64()? as u32;
    LIVE.with(|live| live.borrow().get(&id).cloned())
}

/// A thrown `Error` for an [`FsError`], with the Node-style `code` (`ENOENT`, `EISDIR`,
/// `ENOTDIR`, `EIO`) hosts already test for.
fn thrown(error: FsError) -> JsValue {
    let code = match error {
        FsError::NotFound(_) => "ENOENT",
        FsError::NotAFile(_) => "EISDIR",
        FsError::NotADirectory(_) => "ENOTDIR",
        FsError::Other(_) => "EIO",
    };
    // A plain `Error`, as Node's fs throws: these codes are the filesystem's, not an `ErrorCode`.
    let thrown: JsValue = js_sys::Error::new(&error.to_string()).into();
    super::convert::set(&thrown, "code", &code.into());
    thrown
}

fn kind_name(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::File => "file",
        EntryKind::Dir => "dir",
    }
}

/// A filesystem in memory: the default of `createToolkit` (one per toolkit), or pass your own
/// as `createToolkit({fs})` to read what the agent wrote and to persist it.
///
/// ```js
/// const files = new MemoryFileSystem({ "/notes/todo.md": "- buy milk" })
/// const toolkit = await createToolkit({ fs: files })
/// await toolkit.execute("read", { path: "/notes/todo.md" }) // { output: "- buy milk", … }
/// localStorage.setItem("files", JSON.stringify(files))      // toJSON()
/// const restored = MemoryFileSystem.fromJSON(JSON.parse(localStorage.getItem("files")))
/// ```
#[wasm_bindgen(js_name = MemoryFileSystem)]
pub struct MemoryFileSystem {
    fs: MemoryFs,
    id: u32,
}

impl Drop for MemoryFileSystem {
    fn drop(&mut self) {
        let id = self.id;
        LIVE.with(|live| live.borrow_mut().remove(&id));
    }
}

impl MemoryFileSystem {
    fn wrap(fs: MemoryFs) -> Self {
        let id = NEXT_ID.with(|next| {
            let id = next.get();
            next.set(id.wrapping_add(1));
            id
        });
        LIVE.with(|live| live.borrow_mut().insert(id, fs.clone()));
        MemoryFileSystem { fs, id }
    }

    fn load(fs: MemoryFs, saved: &JsValue) -> Result<Self, JsValue> {
        if !(saved.is_undefined() || saved.is_null()) {
            let json = to_json(saved).map_err(|e| js_error("invalid_argument", &e))?;
            let json = if json.get("files").is_some() || json.get("dirs").is_some() {
                json
            } else {
                crate::json_value!({ "files": json })
            };
            fs.import_json(&json).map_err(thrown)?;
        }
        Ok(MemoryFileSystem::wrap(fs))
    }
}

#[wasm_bindgen(js_class = MemoryFileSystem)]
impl MemoryFileSystem {
    /// An empty filesystem, or one holding `files` (`{path: contents}` or a saved
    /// `{files, dirs}`); `options.cwd` (default `/`) is where relative paths start.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(
            unchecked_optional_param_type = "Record<string, string> | MemoryFileSystemJSON"
        )]
        files: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "{ cwd?: string }")] options: Option<
            JsValue,
        >,
    ) -> Result<MemoryFileSystem, JsValue> {
        let cwd = options.map(|o| get(&o, "cwd")).and_then(|c| c.as_string());
        let fs = MemoryFs::with_cwd(cwd.as_deref().unwrap_or("/"));
        MemoryFileSystem::load(fs, &files.unwrap_or(JsValue::UNDEFINED))
    }

    /// A filesystem restored from what `toJSON()` gave.
    ///
    /// ```js
    /// const copy = MemoryFileSystem.fromJSON(files.toJSON())
    /// ```
    #[wasm_bindgen(js_name = fromJSON)]
    pub fn from_json(
        #[wasm_bindgen(unchecked_param_type = "MemoryFileSystemJSON")] saved: JsValue,
    ) -> Result<MemoryFileSystem, JsValue> {
        MemoryFileSystem::load(MemoryFs::new(), &saved)
    }

    /// Everything, as plain JSON: `{files: {"/path": "contents"}, dirs: ["/empty-dir"]}`.
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "MemoryFileSystemJSON")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        from_json(&self.fs.export_json())
    }

    /// Internal: lets `createToolkit` use this filesystem directly.
    #[wasm_bindgen(getter, js_name = __toolnexusMemoryFsId, skip_typescript)]
    pub fn memory_id(&self) -> u32 {
        self.id
    }

    /// Where relative paths start.
    #[wasm_bindgen(getter)]
    pub fn cwd(&self) -> String {
        crate::core::fs::Fs::cwd(&self.fs)
    }

    /// A file's text; throws an `Error` with `code` `ENOENT` (missing) or `EISDIR`.
    #[wasm_bindgen(js_name = readFile)]
    pub fn read_file(&self, path: &str) -> Result<String, JsValue> {
        self.fs.read_sync(path).map_err(thrown)
    }

    /// Creates or replaces a file, creating its parent directories.
    #[wasm_bindgen(js_name = writeFile)]
    pub fn write_file(&self, path: &str, contents: &str) -> Result<(), JsValue> {
        self.fs.write_sync(path, contents).map_err(thrown)
    }

    /// Removes a file, or a directory with everything under it.
    pub fn remove(&self, path: &str) -> Result<(), JsValue> {
        self.fs.remove_sync(path).map_err(thrown)
    }

    /// Moves the file at `from` to `to` in one step, replacing a file there; throws `ENOENT`
    /// when `from` is missing, `EISDIR` when either end is a directory.
    ///
    /// ```js
    /// files.writeFile("/notes.md.tmp", "new"); files.rename("/notes.md.tmp", "/notes.md")
    /// ```
    pub fn rename(&self, from: &str, to: &str) -> Result<(), JsValue> {
        self.fs.rename_sync(from, to).map_err(thrown)
    }

    /// A directory's entries, sorted by name.
    #[wasm_bindgen(js_name = readDir, unchecked_return_type = "ToolnexusDirEntry[]")]
    pub fn read_dir(&self, path: &str) -> Result<JsValue, JsValue> {
        let entries = self.fs.list_sync(path).map_err(thrown)?;
        let list: Vec<crate::core::json::value::Value> = entries
            .into_iter()
            .map(|e| crate::json_value!({"name": e.name, "kind": kind_name(e.kind)}))
            .collect();
        from_json(&crate::core::json::value::Value::Array(list))
    }

    /// `{kind: "file" | "dir"}`, or `null` when nothing is at `path`.
    #[wasm_bindgen(unchecked_return_type = "{ kind: \"file\" | \"dir\" } | null")]
    pub fn stat(&self, path: &str) -> Result<JsValue, JsValue> {
        match self.fs.kind_sync(path) {
            Some(kind) => from_json(&crate::json_value!({"kind": kind_name(kind)})),
            None => Ok(JsValue::NULL),
        }
    }

    /// Whether anything is at `path`.
    pub fn exists(&self, path: &str) -> bool {
        self.fs.kind_sync(path).is_some()
    }

    /// Every file's absolute path, sorted.
    pub fn files(&self) -> Vec<String> {
        self.fs.paths()
    }
}
