//! The games of a collection: the paths given (files, and folders
//! standing for their `*.caminos` files) as one list sorted by file name,
//! each named by its file name and the hash of its contents; the list is
//! part of the identity of an analysis, and is written next to the
//! records (`collection.tsv`) so that a merge can name missing games.

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::cli::shards::fnv64;

/// The file listing a collection in an `--out` folder.
pub const LIST: &str = "collection.tsv";

/// One game of a collection.
#[derive(Clone, Debug)]
pub struct Item {
    /// Its file name (without the folder).
    pub name: String,
    /// Where it was read.
    pub path: PathBuf,
    /// FNV-1a of its contents, in hex.
    pub hash: String,
}

/// The games of `paths`, sorted by file name (then by hash and path); a
/// file given twice counts once.
pub fn gather(paths: &[PathBuf]) -> anyhow::Result<Vec<Item>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = 0;
            let entries = std::fs::read_dir(path)
                .map_err(|e| crate::cli::files::io_error("read", path, &e))?;
            for entry in entries {
                let p = entry
                    .map_err(|e| crate::cli::files::io_error("read", path, &e))?
                    .path();
                if p.is_file() && p.extension().is_some_and(|e| e == "caminos") {
                    files.push(p);
                    found += 1;
                }
            }
            if found == 0 {
                bail!("{}: the folder holds no .caminos file", path.display());
            }
        } else if path.is_file() {
            files.push(path.clone());
        } else {
            bail!("{}: no such file or folder", path.display());
        }
    }
    let mut items = Vec::with_capacity(files.len());
    for path in files {
        let bytes =
            std::fs::read(&path).map_err(|e| crate::cli::files::io_error("read", &path, &e))?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        items.push(Item {
            name,
            path,
            hash: format!("{:016x}", fnv64(&bytes)),
        });
    }
    items.sort_by(|a, b| (&a.name, &a.hash, &a.path).cmp(&(&b.name, &b.hash, &b.path)));
    items.dedup_by(|a, b| a.path == b.path);
    Ok(items)
}

/// The collection as lines `INDEX<TAB>NAME<TAB>HASH`.
pub fn list(items: &[Item]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for (i, it) in items.iter().enumerate() {
        // Writing to a String cannot fail.
        let _ = writeln!(out, "{i}\t{}\t{}", it.name, it.hash);
    }
    out
}

/// The hash naming the whole collection: of its list.
pub fn hash(items: &[Item]) -> String {
    format!("fnv64 {:016x}", fnv64(list(items).as_bytes()))
}

/// Writes the collection's list into `dir` (where a merge finds the
/// names of missing games).
pub fn save_list(dir: &Path, items: &[Item]) -> anyhow::Result<()> {
    crate::cli::files::save_atomically(&dir.join(LIST), list(items).as_bytes())
}

/// The names of a collection's games by index, read from the list in
/// `dir`, if it is there and is the list of `hash`.
pub fn read_names(dir: &Path, hash_wanted: &str) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(dir.join(LIST)).ok()?;
    if format!("fnv64 {:016x}", fnv64(text.as_bytes())) != hash_wanted {
        return None;
    }
    text.lines()
        .map(|l| l.split('\t').nth(1).map(str::to_string))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_and_files_make_one_sorted_list() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("b.caminos"), "x").unwrap();
        std::fs::write(sub.join("notes.txt"), "y").unwrap();
        std::fs::write(dir.path().join("a.caminos"), "z").unwrap();
        let a = dir.path().join("a.caminos");
        let items = gather(&[sub.clone(), a.clone(), a]).unwrap();
        let names: Vec<&str> = items.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(names, ["a.caminos", "b.caminos"]);
        let h = hash(&items);
        save_list(dir.path(), &items).unwrap();
        assert_eq!(read_names(dir.path(), &h).unwrap(), names);
        assert_eq!(read_names(dir.path(), "fnv64 0"), None);
        let e = gather(&[dir.path().join("none")]).unwrap_err().to_string();
        assert!(e.contains("no such file"), "{e}");
        std::fs::remove_file(sub.join("b.caminos")).unwrap();
        let e = gather(&[sub]).unwrap_err().to_string();
        assert!(e.contains("no .caminos file"), "{e}");
    }
}
