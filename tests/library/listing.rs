//! The public API, listed: every public item of the library (modules,
//! types, their public fields, variants and methods, functions, constants
//! and trait implementations, with signatures) in `tests/data/public-api.txt`,
//! so that a change to the API shows in review as a change to that file.
//!
//! The listing comes from rustdoc's JSON output (unstable, so it is
//! asked for with `RUSTC_BOOTSTRAP=1`). After an intended change,
//! regenerate the file: `CABRA_UPDATE_API=1 cargo test --test library listing`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The rustdoc JSON of the library, built with the `serde` feature only
/// (the program's features add nothing to the library's API).
fn rustdoc_json() -> Value {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("public-api");
    let out = Command::new(env!("CARGO"))
        .args([
            "rustdoc",
            "--lib",
            "--no-default-features",
            "--features",
            "serde",
        ])
        .arg("--target-dir")
        .arg(&target)
        .args(["--", "-Z", "unstable-options", "--output-format", "json"])
        .env("RUSTC_BOOTSTRAP", "1")
        .env_remove("RUSTDOCFLAGS")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo rustdoc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(target.join("doc/cabra.json")).expect("rustdoc wrote JSON");
    serde_json::from_str(&text).expect("rustdoc's JSON reads")
}

/// A type as Rust writes it (enough of it to see a change).
fn ty(t: &Value) -> String {
    let Some((kind, v)) = t
        .as_object()
        .and_then(|o| o.iter().next())
        .map(|(k, v)| (k.as_str(), v))
    else {
        return t.as_str().unwrap_or("?").to_string();
    };
    match kind {
        "resolved_path" => {
            // `name` in the JSON of older rustdocs (Rust 1.85).
            let path = v["path"].as_str().or(v["name"].as_str()).unwrap_or("?");
            let name = path.rsplit("::").next().unwrap_or(path);
            format!("{name}{}", args(&v["args"]))
        }
        "generic" | "primitive" => v.as_str().unwrap_or("?").to_string(),
        "borrowed_ref" => {
            let m = if v["is_mutable"] == true { "mut " } else { "" };
            let lt = v["lifetime"]
                .as_str()
                .map(|l| format!("{l} "))
                .unwrap_or_default();
            format!("&{lt}{m}{}", ty(&v["type"]))
        }
        "raw_pointer" => {
            let m = if v["is_mutable"] == true {
                "mut"
            } else {
                "const"
            };
            format!("*{m} {}", ty(&v["type"]))
        }
        "tuple" => {
            let items: Vec<String> = v.as_array().into_iter().flatten().map(ty).collect();
            format!("({})", items.join(", "))
        }
        "slice" => format!("[{}]", ty(v)),
        "array" => format!("[{}; {}]", ty(&v["type"]), v["len"].as_str().unwrap_or("?")),
        "impl_trait" => format!("impl {}", bounds(v)),
        "dyn_trait" => {
            let traits: Vec<String> = v["traits"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|t| ty(&serde_json::json!({ "resolved_path": t["trait"] })))
                .collect();
            format!("dyn {}", traits.join(" + "))
        }
        "qualified_path" => format!(
            "{}::{}",
            ty(&v["self_type"]),
            v["name"].as_str().unwrap_or("?")
        ),
        "function_pointer" => format!("fn{}", sig(&v["sig"])),
        other => format!("<{other}>"),
    }
}

/// Generic arguments: `<A, B>` or `(A) -> B`.
fn args(a: &Value) -> String {
    if let Some(ab) = a.get("angle_bracketed") {
        let mut items: Vec<String> = ab["args"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|x| {
                match x
                    .as_object()
                    .and_then(|o| o.iter().next())
                    .map(|(k, v)| (k.as_str(), v))
                {
                    Some(("type", t)) => ty(t),
                    Some(("lifetime", l)) => l.as_str().unwrap_or("?").to_string(),
                    Some(("const", c)) => c["expr"].as_str().unwrap_or("?").to_string(),
                    _ => "?".to_string(),
                }
            })
            .collect();
        for c in ab["constraints"].as_array().into_iter().flatten() {
            let name = c["name"].as_str().unwrap_or("?");
            match c["binding"].get("equality").and_then(|e| e.get("type")) {
                Some(t) => items.push(format!("{name} = {}", ty(t))),
                None => items.push(format!("{name}: {}", bounds(&c["binding"]["constraint"]))),
            }
        }
        return if items.is_empty() {
            String::new()
        } else {
            format!("<{}>", items.join(", "))
        };
    }
    if let Some(p) = a.get("parenthesized") {
        let inputs: Vec<String> = p["inputs"]
            .as_array()
            .into_iter()
            .flatten()
            .map(ty)
            .collect();
        let output = if p["output"].is_null() {
            String::new()
        } else {
            format!(" -> {}", ty(&p["output"]))
        };
        return format!("({}){output}", inputs.join(", "));
    }
    String::new()
}

/// Trait bounds: `A + B + 'static`.
fn bounds(b: &Value) -> String {
    let items: Vec<String> = b
        .as_array()
        .into_iter()
        .flatten()
        .map(|x| {
            match x
                .as_object()
                .and_then(|o| o.iter().next())
                .map(|(k, v)| (k.as_str(), v))
            {
                Some(("trait_bound", t)) => {
                    let path = t["trait"]["path"]
                        .as_str()
                        .or(t["trait"]["name"].as_str())
                        .unwrap_or("?");
                    let name = path.rsplit("::").next().unwrap_or(path);
                    let maybe = if t["modifier"] == "maybe" { "?" } else { "" };
                    format!("{maybe}{name}{}", args(&t["trait"]["args"]))
                }
                Some(("outlives", l)) => l.as_str().unwrap_or("?").to_string(),
                _ => "?".to_string(),
            }
        })
        .collect();
    items.join(" + ")
}

/// Generic parameters with their bounds: `<R: RngCore + ?Sized>`.
fn generics(g: &Value) -> String {
    let items: Vec<String> = g["params"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| {
            p["kind"]
                .get("type")
                .is_none_or(|t| t["is_synthetic"] != true)
        })
        .map(|p| {
            let name = p["name"].as_str().unwrap_or("?");
            match p["kind"]
                .as_object()
                .and_then(|o| o.iter().next())
                .map(|(k, v)| (k.as_str(), v))
            {
                Some(("type", t)) if t["bounds"].as_array().is_some_and(|b| !b.is_empty()) => {
                    format!("{name}: {}", bounds(&t["bounds"]))
                }
                Some(("const", c)) => format!("const {name}: {}", ty(&c["type"])),
                _ => name.to_string(),
            }
        })
        .collect();
    if items.is_empty() {
        String::new()
    } else {
        format!("<{}>", items.join(", "))
    }
}

/// A function's parameters and result: `(&self, m: impl Into<Move>) -> Result<(), E>`.
fn sig(s: &Value) -> String {
    let inputs: Vec<String> = s["inputs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let name = p[0].as_str().unwrap_or("?");
            let t = ty(&p[1]);
            match (name, t.as_str()) {
                ("self", "Self") => "self".to_string(),
                ("self", "&Self") => "&self".to_string(),
                ("self", "&mut Self") => "&mut self".to_string(),
                _ => format!("{name}: {t}"),
            }
        })
        .collect();
    let output = if s["output"].is_null() {
        String::new()
    } else {
        format!(" -> {}", ty(&s["output"]))
    };
    format!("({}){output}", inputs.join(", "))
}

/// Lists the public item `id` at `path` (named `alias` when re-exported
/// under another name), and what it holds.
fn walk(doc: &Value, id: &Value, path: &str, alias: Option<&str>, out: &mut BTreeSet<String>) {
    let index = &doc["index"];
    let Some(item) = index.get(id.to_string()) else {
        return;
    };
    if item["visibility"] != "public" && !path.is_empty() && alias.is_none() {
        return;
    }
    let name = alias.or(item["name"].as_str()).unwrap_or("");
    let full = if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}::{name}")
    };
    let Some((kind, inner)) = item["inner"]
        .as_object()
        .and_then(|o| o.iter().next())
        .map(|(k, v)| (k.as_str(), v))
    else {
        return;
    };
    match kind {
        "module" => {
            out.insert(format!("mod {full}"));
            for child in inner["items"].as_array().into_iter().flatten() {
                walk(doc, child, &full, None, out);
            }
        }
        "use" => {
            // A re-export: list what it names under its new path (glob
            // re-exports of modules list their items).
            let Some(target) = inner.get("id").filter(|t| !t.is_null()) else {
                out.insert(format!(
                    "pub use {full} = {}",
                    inner["source"].as_str().unwrap_or("?")
                ));
                return;
            };
            let alias = inner["name"].as_str().unwrap_or(name);
            if inner["is_glob"] == true {
                if let Some(m) = index.get(target.to_string()) {
                    for child in m["inner"]["module"]["items"]
                        .as_array()
                        .into_iter()
                        .flatten()
                    {
                        walk(doc, child, path, None, out);
                    }
                }
                return;
            }
            match index.get(target.to_string()) {
                Some(_) => walk(doc, target, path, Some(alias), out),
                None => {
                    out.insert(format!(
                        "pub use {path}::{alias} = {}",
                        inner["source"].as_str().unwrap_or("?")
                    ));
                }
            }
        }
        "function" => {
            out.insert(format!(
                "fn {full}{}{}",
                generics(&inner["generics"]),
                sig(&inner["sig"])
            ));
        }
        "constant" => {
            out.insert(format!("const {full}: {}", ty(&inner["type"])));
        }
        "static" => {
            out.insert(format!("static {full}: {}", ty(&inner["type"])));
        }
        "type_alias" => {
            out.insert(format!(
                "type {full}{} = {}",
                generics(&inner["generics"]),
                ty(&inner["type"])
            ));
        }
        "trait" => {
            out.insert(format!("trait {full}{}", generics(&inner["generics"])));
            for child in inner["items"].as_array().into_iter().flatten() {
                member(doc, child, &full, out);
            }
        }
        "struct" | "enum" | "union" => {
            let attrs = item["attrs"].to_string();
            let ne = if attrs.contains("non_exhaustive") {
                "#[non_exhaustive] "
            } else {
                ""
            };
            out.insert(format!("{ne}{kind} {full}{}", generics(&inner["generics"])));
            let kind_fields = &inner["kind"];
            let fields: Vec<&Value> = kind_fields
                .get("plain")
                .map(|p| p["fields"].as_array().into_iter().flatten().collect())
                .or_else(|| {
                    kind_fields.get("tuple").map(|t| {
                        t.as_array()
                            .into_iter()
                            .flatten()
                            .filter(|f| !f.is_null())
                            .collect()
                    })
                })
                .unwrap_or_default();
            for f in fields {
                member(doc, f, &full, out);
            }
            for v in inner["variants"].as_array().into_iter().flatten() {
                member(doc, v, &full, out);
            }
            for imp in inner["impls"].as_array().into_iter().flatten() {
                let Some(i) = index.get(imp.to_string()) else {
                    continue;
                };
                let i = &i["inner"]["impl"];
                if i["is_synthetic"] == true || !i["blanket_impl"].is_null() {
                    continue;
                }
                if i["trait"].is_null() {
                    for m in i["items"].as_array().into_iter().flatten() {
                        member(doc, m, &full, out);
                    }
                } else {
                    let t = ty(&serde_json::json!({ "resolved_path": i["trait"] }));
                    out.insert(format!("impl {t} for {}", ty(&i["for"])));
                }
            }
        }
        "macro" => {
            out.insert(format!("macro {full}!"));
        }
        _ => {}
    }
}

/// A field, variant, method or associated item of `owner`.
fn member(doc: &Value, id: &Value, owner: &str, out: &mut BTreeSet<String>) {
    let Some(item) = doc["index"].get(id.to_string()) else {
        return;
    };
    let name = item["name"].as_str().unwrap_or("?");
    let Some((kind, inner)) = item["inner"]
        .as_object()
        .and_then(|o| o.iter().next())
        .map(|(k, v)| (k.as_str(), v))
    else {
        return;
    };
    let public = item["visibility"] == "public" || item["visibility"] == "default";
    match kind {
        "struct_field" if item["visibility"] == "public" => {
            out.insert(format!("field {owner}::{name}: {}", ty(inner)));
        }
        "variant" => {
            out.insert(format!("variant {owner}::{name}"));
            if let Some(fields) = inner["kind"].get("struct").map(|s| &s["fields"]) {
                for f in fields.as_array().into_iter().flatten() {
                    member(doc, f, &format!("{owner}::{name}"), out);
                }
            }
        }
        "function" if public => {
            out.insert(format!(
                "fn {owner}::{name}{}{}",
                generics(&inner["generics"]),
                sig(&inner["sig"])
            ));
        }
        "assoc_const" | "constant" if public => {
            out.insert(format!("const {owner}::{name}: {}", ty(&inner["type"])));
        }
        "assoc_type" => {
            out.insert(format!("type {owner}::{name}"));
        }
        _ => {}
    }
}

#[test]
fn the_public_api_is_the_listed_one() {
    let doc = rustdoc_json();
    let mut items = BTreeSet::new();
    walk(&doc, &doc["root"], "", None, &mut items);
    let listing: String = items.iter().fold(String::new(), |s, l| s + l + "\n");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/public-api.txt");
    if std::env::var_os("CABRA_UPDATE_API").is_some() {
        std::fs::write(&file, &listing).expect("the listing is written");
        return;
    }
    let old = std::fs::read_to_string(&file).unwrap_or_default();
    let old_items: BTreeSet<&str> = old.lines().collect();
    let new_items: BTreeSet<&str> = listing.lines().collect();
    let gone: Vec<&&str> = old_items.difference(&new_items).collect();
    let added: Vec<&&str> = new_items.difference(&old_items).collect();
    assert!(
        gone.is_empty() && added.is_empty(),
        "the public API changed; if that is meant, run `CABRA_UPDATE_API=1 cargo test --test library listing` \
         and commit tests/data/public-api.txt\nremoved:\n  {}\nadded:\n  {}",
        gone.iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("\n  "),
        added
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("\n  ")
    );
}
