//! The core's [`Fs`] over JavaScript: a host object with the documented `ToolnexusFs` methods,
//! Node's `node:fs/promises` module, or Deno's `Deno.*` functions. Paths reach the host
//! already absolute and normalized (POSIX-style); errors come back typed by their `code`
//! (`ENOENT`, `EISDIR`, `ENOTDIR`) or, in Deno, their `name` (`NotFound`, …).

use js_sys::{Array, Function, Object};
use wasm_bindgen::prelude::*;

use super::convert::{error_text, get};
use super::host::set;
use super::promise::settle;
use crate::core::fs::{dirname, join, normalize, DirEntry, EntryKind, Fs, FsError, FsFuture};

/// Which JavaScript API the filesystem calls.
#[derive(Clone)]
enum Backend {
    /// A host object: `readFile`, `writeFile`, `remove`, `readDir`, `stat`, `realPath?`,
    /// `rename?`.
    Host(JsValue),
    /// The `node:fs/promises` module.
    Node(JsValue),
    /// The `Deno` namespace.
    Deno(JsValue),
}

/// A filesystem reached through JavaScript.
pub struct JsFs {
    backend: Backend,
    cwd: String,
}

impl JsFs {
    /// Over a host object; its `cwd` (a string, or a function giving one) defaults to `/`.
    pub fn host(object: JsValue) -> Self {
        let cwd = get(&object, "cwd");
        let cwd = match cwd.dyn_ref::<Function>() {
            Some(f) => f.call0(&object).ok().and_then(|v| v.as_string()),
            None => cwd.as_string(),
        };
        JsFs {
            cwd: normalize("/", &cwd.unwrap_or_else(|| "/".into())),
            backend: Backend::Host(object),
        }
    }

    /// Over the `node:fs/promises` module; the working directory is `process.cwd()`.
    pub fn node(module: JsValue) -> Self {
        let process = get(&js_sys::global(), "process");
        let cwd = call_now(&process, "cwd").unwrap_or_else(|| "/".into());
        JsFs {
            cwd: posix(&cwd),
            backend: Backend::Node(module),
        }
    }

    /// Over `Deno`; the working directory is `Deno.cwd()`.
    pub fn deno(deno: JsValue) -> Self {
        let cwd = call_now(&deno, "cwd").unwrap_or_else(|| "/".into());
        JsFs {
            cwd: posix(&cwd),
            backend: Backend::Deno(deno),
        }
    }

    fn at(&self, path: &str) -> String {
        normalize(&self.cwd, path)
    }
}

/// Windows paths as POSIX ones (`C:\a` → `/C:/a`), so path arithmetic stays one kind.
fn posix(path: &str) -> String {
    let slashed = path.replace('\\', "/");
    normalize("/", &slashed)
}

fn call_now(object: &JsValue, method: &str) -> Option<String> {
    let f = get(object, method).dyn_into::<Function>().ok()?;
    f.call0(object).ok()?.as_string()
}

/// Calls `object[method](...args)` and settles the result.
async fn call(object: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f = get(object, method)
        .dyn_into::<Function>()
        .map_err(|_| JsValue::from_str(&format!("the filesystem has no {method}() function")))?;
    settle(super::convert::apply(&f, object, args)?).await
}

/// A thrown filesystem error as an [`FsError`] about `path`.
fn fs_error(thrown: &JsValue, path: &str) -> FsError {
    let code = get(thrown, "code").as_string();
    let name = get(thrown, "name").as_string();
    match code.as_deref().or(name.as_deref()) {
        Some("ENOENT" | "NotFound") => FsError::NotFound(path.to_owned()),
        Some("EISDIR" | "IsADirectory") => FsError::NotAFile(path.to_owned()),
        Some("ENOTDIR" | "NotADirectory") => FsError::NotADirectory(path.to_owned()),
        _ => FsError::Other(error_text(thrown)),
    }
}

fn options(pairs: &[(&str, JsValue)]) -> JsValue {
    let object: JsValue = Object::new().into();
    for (key, value) in pairs {
        set(&object, key, value);
    }
    object
}

fn recursive() -> JsValue {
    options(&[("recursive", JsValue::TRUE)])
}

/// Reads `{kind: "file" | "dir"}`, a Node/Deno stat, or a Node `Dirent`.
fn kind_of(value: &JsValue) -> Option<EntryKind> {
    match get(value, "kind").as_string().as_deref() {
        Some("file") => return Some(EntryKind::File),
        Some("dir" | "directory") => return Some(EntryKind::Dir),
        _ => {}
    }
    let test = |key: &str| {
        let field = get(value, key);
        match field.dyn_ref::<Function>() {
            Some(f) => f.call0(value).ok().is_some_and(|v| v.is_truthy()),
            None => field.is_truthy(),
        }
    };
    if test("isDirectory") {
        Some(EntryKind::Dir)
    } else if test("isFile") {
        Some(EntryKind::File)
    } else {
        None
    }
}

async fn read(backend: Backend, path: String) -> Result<String, FsError> {
    let p = JsValue::from_str(&path);
    let text = match &backend {
        Backend::Host(o) => call(o, "readFile", &[p]).await,
        Backend::Node(m) => call(m, "readFile", &[p, "utf8".into()]).await,
        Backend::Deno(d) => call(d, "readTextFile", &[p]).await,
    }
    .map_err(|e| fs_error(&e, &path))?;
    text.as_string()
        .ok_or_else(|| FsError::Other(format!("readFile({path}) did not give a string")))
}

/// The file's bytes: Node's `readFile` without an encoding, `Deno.readFile`, or a host
/// object's optional `readBytes` (without one, a binary file cannot be read: a clear error,
/// never its text mangled).
async fn read_bytes(backend: Backend, path: String) -> Result<Vec<u8>, FsError> {
    let p = JsValue::from_str(&path);
    let bytes = match &backend {
        Backend::Host(o) if !get(o, "readBytes").is_function() => {
            let message =
                format!("cannot read {path} as bytes: the filesystem has no readBytes() function");
            return Err(FsError::Other(message));
        }
        Backend::Host(o) => call(o, "readBytes", &[p]).await,
        Backend::Node(m) => call(m, "readFile", &[p]).await,
        Backend::Deno(d) => call(d, "readFile", &[p]).await,
    }
    .map_err(|e| fs_error(&e, &path))?;
    if let Some(view) = bytes.dyn_ref::<js_sys::Uint8Array>() {
        Ok(view.to_vec())
    } else if bytes.is_instance_of::<js_sys::ArrayBuffer>() {
        Ok(js_sys::Uint8Array::new(&bytes).to_vec())
    } else {
        let message = format!("readBytes({path}) did not give a Uint8Array or an ArrayBuffer");
        Err(FsError::Other(message))
    }
}

async fn write(backend: Backend, path: String, contents: String) -> Result<(), FsError> {
    let (p, c) = (JsValue::from_str(&path), JsValue::from_str(&contents));
    let parent = JsValue::from_str(&dirname(&path));
    match &backend {
        Backend::Host(o) => call(o, "writeFile", &[p, c]).await,
        Backend::Node(m) => match call(m, "mkdir", &[parent, recursive()]).await {
            Ok(_) => call(m, "writeFile", &[p, c, "utf8".into()]).await,
            Err(e) => Err(e),
        },
        Backend::Deno(d) => match call(d, "mkdir", &[parent, recursive()]).await {
            Ok(_) => call(d, "writeTextFile", &[p, c]).await,
            Err(e) => Err(e),
        },
    }
    .map(|_| ())
    .map_err(|e| fs_error(&e, &path))
}

async fn remove(backend: Backend, path: String) -> Result<(), FsError> {
    let p = JsValue::from_str(&path);
    match &backend {
        Backend::Host(o) => call(o, "remove", &[p]).await,
        Backend::Node(m) => call(m, "rm", &[p, recursive()]).await,
        Backend::Deno(d) => call(d, "remove", &[p, recursive()]).await,
    }
    .map(|_| ())
    .map_err(|e| fs_error(&e, &path))
}

/// Node's `rename`, `Deno.rename`, or a host object's (the caller checked it has one).
async fn rename(backend: Backend, from: String, to: String) -> Result<(), FsError> {
    let args = [JsValue::from_str(&from), JsValue::from_str(&to)];
    match &backend {
        Backend::Host(o) | Backend::Node(o) | Backend::Deno(o) => call(o, "rename", &args).await,
    }
    .map(|_| ())
    .map_err(|e| fs_error(&e, &from))
}

async fn kind(backend: Backend, path: String) -> Result<Option<EntryKind>, FsError> {
    let p = JsValue::from_str(&path);
    let stat = match &backend {
        Backend::Host(o) => call(o, "stat", &[p]).await,
        Backend::Node(m) => call(m, "stat", &[p]).await,
        Backend::Deno(d) => call(d, "stat", &[p]).await,
    };
    match stat {
        Ok(value) if value.is_null() || value.is_undefined() => Ok(None),
        Ok(value) => Ok(kind_of(&value)),
        Err(e) => match fs_error(&e, &path) {
            FsError::NotFound(_) | FsError::NotADirectory(_) => Ok(None),
            other => Err(other),
        },
    }
}

async fn list(backend: Backend, dir: String) -> Result<Vec<DirEntry>, FsError> {
    let d = JsValue::from_str(&dir);
    let raw = match &backend {
        Backend::Host(o) => call(o, "readDir", &[d]).await,
        Backend::Node(m) => {
            call(
                m,
                "readdir",
                &[d, options(&[("withFileTypes", JsValue::TRUE)])],
            )
            .await
        }
        Backend::Deno(deno) => {
            let f = get(deno, "readDirSync").dyn_into::<Function>();
            match f {
                Ok(f) => f.call1(deno, &d).map(|it| Array::from(&it).into()),
                Err(_) => Err(JsValue::from_str("Deno.readDirSync is missing")),
            }
        }
    }
    .map_err(|e| fs_error(&e, &dir))?;
    let mut entries = Vec::new();
    for item in Array::from(&raw).iter() {
        let Some(name) = get(&item, "name").as_string() else {
            continue;
        };
        let kind = match kind_of(&item) {
            Some(kind) => Some(kind),
            None => kind(backend.clone(), join(&dir, &name))
                .await
                .ok()
                .flatten(),
        };
        if let Some(kind) = kind {
            entries.push(DirEntry { name, kind });
        }
    }
    crate::core::sorting::sort(&mut entries);
    Ok(entries)
}

async fn real_path(backend: Backend, path: String) -> Result<String, FsError> {
    let p = JsValue::from_str(&path);
    let real = match &backend {
        Backend::Host(o) if !get(o, "realPath").is_function() => {
            return match kind(backend.clone(), path.clone()).await? {
                Some(_) => Ok(path),
                None => Err(FsError::NotFound(path)),
            }
        }
        Backend::Host(o) => call(o, "realPath", &[p]).await,
        Backend::Node(m) => call(m, "realpath", &[p]).await,
        Backend::Deno(d) => call(d, "realPath", &[p]).await,
    }
    .map_err(|e| fs_error(&e, &path))?;
    real.as_string()
        .map(|r| posix(&r))
        .ok_or_else(|| FsError::Other(format!("realPath({path}) did not give a string")))
}

impl Fs for JsFs {
    fn read(&self, path: &str) -> FsFuture<String> {
        Box::pin(read(self.backend.clone(), self.at(path)))
    }
    fn read_bytes(&self, path: &str) -> FsFuture<Vec<u8>> {
        Box::pin(read_bytes(self.backend.clone(), self.at(path)))
    }
    fn write(&self, path: &str, contents: &str) -> FsFuture<()> {
        Box::pin(write(
            self.backend.clone(),
            self.at(path),
            contents.to_owned(),
        ))
    }
    fn remove(&self, path: &str) -> FsFuture<()> {
        Box::pin(remove(self.backend.clone(), self.at(path)))
    }
    /// A host object without `rename` has none: the caller copies instead.
    fn rename(&self, from: &str, to: &str) -> Option<FsFuture<()>> {
        if let Backend::Host(o) = &self.backend {
            if !get(o, "rename").is_function() {
                return None;
            }
        }
        Some(Box::pin(rename(
            self.backend.clone(),
            self.at(from),
            self.at(to),
        )))
    }
    fn list(&self, dir: &str) -> FsFuture<Vec<DirEntry>> {
        Box::pin(list(self.backend.clone(), self.at(dir)))
    }
    fn kind(&self, path: &str) -> FsFuture<Option<EntryKind>> {
        Box::pin(kind(self.backend.clone(), self.at(path)))
    }
    fn real_path(&self, path: &str) -> FsFuture<String> {
        Box::pin(real_path(self.backend.clone(), self.at(path)))
    }
    fn cwd(&self) -> String {
        self.cwd.clone()
    }
}
