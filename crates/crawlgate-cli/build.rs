//! Embeds the demo site (`fixtures/sites/demo/`) in the binary, for `crawlgate audit --demo`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let demo = manifest.join("../../fixtures/sites/demo");
    let mut files = Vec::new();
    collect(&demo, &demo, &mut files);
    files.sort();
    let mut out = String::from(
        "/// The demo site's files: (path relative to `fixtures/sites/demo/`, bytes).\n\
         pub(crate) static DEMO_FILES: &[(&str, &[u8])] = &[\n",
    );
    for (relative, absolute) in &files {
        let _ = writeln!(
            out,
            "    ({relative:?}, include_bytes!({:?})),",
            absolute.display().to_string()
        );
    }
    out.push_str("];\n");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    std::fs::write(out_dir.join("demo_files.rs"), out).expect("write demo_files.rs");
    println!("cargo:rerun-if-changed={}", demo.display());
}

/// Every file under `dir`, as (`/`-separated path relative to `root`, absolute path).
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        println!("cargo:rerun-if-changed={}", path.display());
        if path.is_dir() {
            collect(root, &path, files);
        } else if let Ok(relative) = path.strip_prefix(root) {
            let relative = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            files.push((relative, path.canonicalize().unwrap_or(path)));
        }
    }
}
