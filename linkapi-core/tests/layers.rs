//! Layers point one way: each of these modules of `linkapi-core` names (`crate::...`, outside
//! comments) only the modules below it. Run with `cargo test -p linkapi-core --test layers`.

use std::path::{Path, PathBuf};

/// A module and the crate modules its code may name besides itself.
const LAYERS: &[(&str, &[&str])] = &[
    ("model", &[]),
    ("clock", &["model"]),
    ("codes", &["model", "clock"]),
    ("wire", &["model", "clock", "codes"]),
    ("store", &["model", "clock", "codes", "locks"]),
    (
        "service",
        &[
            "model", "clock", "codes", "locks", "store", "wire", "error", "metrics", "pages",
            "blob", "webhooks", "heap", "qr", "image",
        ],
    ),
];

fn sources(path: &Path, into: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .expect("a source directory")
            .map(|e| e.expect("an entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            sources(&entry, into);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        into.push(path.to_owned());
    }
}

/// The crate modules `text` names outside comments, with the line each is named on.
fn named(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // `linkapi_core::` and `$crate::` are other spellings; only `crate::` counts.
            let before = rest[..at].chars().last();
            if !name.is_empty()
                && !matches!(before, Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '$')
            {
                found.push((number + 1, name));
            }
            rest = after;
        }
    }
    found
}

#[test]
fn lower_layers_never_name_higher_ones() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    for (module, allowed) in LAYERS {
        let mut files = Vec::new();
        let dir = src.join(module);
        if dir.is_dir() {
            sources(&dir, &mut files);
        } else {
            files.push(src.join(format!("{module}.rs")));
        }
        assert!(
            !files.is_empty() && files[0].exists(),
            "no sources for {module}"
        );
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a readable source");
            for (line, name) in named(&text) {
                if name != *module && !allowed.contains(&name.as_str()) {
                    wrong.push(format!(
                        "{}:{line}: {module} names crate::{name}",
                        file.strip_prefix(&src).unwrap_or(&file).display()
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "arrows pointing up:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_check_sees_what_it_should() {
    let text = "use crate::model::Chain; // crate::http in a comment\n\
                let x = linkapi_core::http::serve;\n\
                fn f() -> crate::error::Result<()> {}";
    assert_eq!(
        named(text),
        [(1, "model".to_owned()), (3, "error".to_owned())]
    );
}
