//! Layers point one way: each of these modules of `linkapi-core` names (`crate::...`, outside
//! comments) only the modules below it; no files of the workspace's crates import each other
//! round (a module naming its own submodules is the module tree, not an import); and the
//! service's machinery (`service/engine/`) names no rule module and implements no `App`
//! method. Run with `cargo test -p linkapi-core --test layers`.

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
            "blob", "signing", "heap", "qr", "image",
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

/// The module path of `file` under `src` (`lib.rs` and `main.rs` are the root).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).expect("a file under src");
    let mut path: Vec<String> = relative
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let last = path.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") || !path.is_empty() && stem != "mod" {
        path.push(stem.to_owned());
    }
    path
}

/// `text` without comments and without its inline test module, whose imports are a test's,
/// not the module's.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod "))
        {
            break;
        }
        code.push_str(line.split("//").next().unwrap_or(""));
        code.push('\n');
    }
    code
}

/// Every path of a `use` tree (`a::{b, c::{d, e}}`), as lists of segments.
fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or("");
        return vec![path.split("::").map(|s| s.trim().to_owned()).collect()];
    };
    let prefix: Vec<String> = tree[..open]
        .split("::")
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut depth, mut start, mut parts) = (0, 0, Vec::new());
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    let mut paths = Vec::new();
    for part in parts.into_iter().filter(|p| !p.trim().is_empty()) {
        for rest in expand(part) {
            let mut path = prefix.clone();
            path.extend(rest.into_iter().filter(|s| s != "self"));
            paths.push(path);
        }
    }
    paths
}

/// The paths `code` names: every tree of its `use` items, and every `crate::` or `super::`
/// path elsewhere.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut lines = code.lines();
    while let Some(line) = lines.next() {
        let item = line.trim_start();
        let item = ["pub use ", "pub(crate) use ", "pub(super) use ", "use "]
            .iter()
            .find_map(|start| item.strip_prefix(start));
        let Some(item) = item else { continue };
        let mut tree = item.to_owned();
        while !tree.contains(';') {
            let Some(more) = lines.next() else { break };
            tree.push_str(more);
        }
        paths.extend(expand(tree.split(';').next().unwrap_or("")));
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        for (at, _) in code.match_indices(start) {
            let before = code[..at].chars().last();
            if matches!(before, Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == ':')
            {
                continue;
            }
            let end = (at..code.len())
                .find(|&i| {
                    !(bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b':')
                })
                .unwrap_or(code.len());
            paths.push(code[at..end].split("::").map(str::to_owned).collect());
        }
    }
    paths
}

/// The module `path`, named in `module`, is in: the deepest module of `modules` it walks
/// through, or `None` for another crate's path.
fn target(
    modules: &std::collections::BTreeSet<Vec<String>>,
    module: &[String],
    path: &[String],
) -> Option<Vec<String>> {
    let mut segments = path.iter().peekable();
    let mut at: Vec<String> = match segments.peek().map(|s| s.as_str()) {
        Some("crate") => {
            segments.next();
            Vec::new()
        }
        Some("self") => {
            segments.next();
            module.to_vec()
        }
        Some("super") => {
            let mut at = module.to_vec();
            while segments.peek().is_some_and(|s| *s == "super") {
                segments.next();
                at.pop();
            }
            at
        }
        Some(first) => {
            let mut child = module.to_vec();
            child.push(first.to_string());
            if !modules.contains(&child) {
                return None;
            }
            module.to_vec()
        }
        None => return None,
    };
    for segment in segments {
        let mut next = at.clone();
        next.push(segment.clone());
        if !modules.contains(&next) {
            break;
        }
        at = next;
    }
    Some(at)
}

/// The groups of files of one crate that import each other round (strongly connected
/// components of more than one file), each file with the files of its group it names.
fn circles(src: &Path) -> Vec<Vec<(String, Vec<String>)>> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut files = Vec::new();
    sources(src, &mut files);
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| (module_of(src, f), f.clone()))
        .collect();
    let names: BTreeSet<Vec<String>> = modules.keys().cloned().collect();
    let mut arrows: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(file).expect("a readable source");
        let to = arrows.entry(module.clone()).or_default();
        for path in paths_in(&code_of(&text)) {
            if let Some(found) = target(&names, module, &path) {
                // A module naming its own descendants is the module tree (it declares them,
                // re-exports and assembles them), not an import.
                if !found.starts_with(module) {
                    to.insert(found);
                }
            }
        }
    }
    // Which modules each reaches, then the groups that reach each other.
    let reach = |from: &Vec<String>| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(at) = stack.pop() {
            for next in arrows.get(&at).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<_, _> = names.iter().map(|m| (m.clone(), reach(m))).collect();
    let mut grouped = BTreeSet::new();
    let mut found = Vec::new();
    for module in &names {
        if grouped.contains(module) || !reached[module].contains(module) {
            continue;
        }
        let group: BTreeSet<_> = reached[module]
            .iter()
            .filter(|other| reached[*other].contains(module))
            .cloned()
            .collect();
        grouped.extend(group.iter().cloned());
        let shown = |m: &Vec<String>| {
            let file = &modules[m];
            file.strip_prefix(src).unwrap_or(file).display().to_string()
        };
        found.push(
            group
                .iter()
                .map(|m| {
                    let into = arrows[m].iter().filter(|t| group.contains(*t));
                    (shown(m), into.map(shown).collect())
                })
                .collect(),
        );
    }
    found
}

#[test]
fn no_files_import_each_other_round() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut wrong = Vec::new();
    for krate in ["linkapi-core", "linkapi-server", "linkapi-cli"] {
        let src = root.join("..").join(krate).join("src");
        for circle in circles(&src) {
            let arrows: Vec<String> = circle
                .iter()
                .map(|(file, into)| format!("  {file} -> {}", into.join(", ")))
                .collect();
            wrong.push(format!("{krate}:\n{}", arrows.join("\n")));
        }
    }
    assert!(wrong.is_empty(), "import circles:\n{}", wrong.join("\n"));
}

#[test]
fn the_circle_check_sees_what_it_should() {
    assert_eq!(
        expand("super::{a::{B, c::D}, self, E as F}"),
        [
            vec!["super", "a", "B"],
            vec!["super", "a", "c", "D"],
            vec!["super"],
            vec!["super", "E"],
        ]
    );
    let modules = [
        vec![],
        vec!["http".to_owned()],
        vec!["http".into(), "route".into()],
    ]
    .into_iter()
    .collect();
    let here = ["http".to_owned(), "route".to_owned()];
    let path = |p: &str| p.split("::").map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(
        target(&modules, &here, &path("super::MetricsAccess")),
        Some(vec!["http".into()])
    );
    assert_eq!(
        target(&modules, &here, &path("crate::http::route::X")),
        Some(here.to_vec())
    );
    assert_eq!(target(&modules, &here, &path("http::Method")), None);
    assert_eq!(
        paths_in("let a = crate::model::X;\n$crate::http::Y;\nuse b::{c, d};"),
        [path("b::c"), path("b::d"), path("crate::model::X")]
    );
}

#[test]
fn two_siblings_naming_each_other_are_a_circle_and_a_parent_naming_its_child_is_not() {
    let dir = std::env::temp_dir().join(format!("layers-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("a")).expect("a directory");
    let write = |name: &str, text: &str| std::fs::write(src.join(name), text).expect("written");
    write("lib.rs", "mod a;\npub use a::b::B;\n");
    write("a/mod.rs", "mod b;\nmod c;\nuse b::B;\npub struct A;\n");
    write("a/b.rs", "use super::A;\npub struct B;\n");
    write("a/c.rs", "// crate::a::b in a comment\npub struct C;\n");
    assert!(circles(&src).is_empty());
    write("a/c.rs", "use super::b::B;\npub struct C;\n");
    write("a/b.rs", "pub struct B(crate::a::c::C);\n");
    let found = circles(&src);
    std::fs::remove_dir_all(&dir).expect("removed");
    assert_eq!(
        found,
        [vec![
            ("a/b.rs".to_owned(), vec!["a/c.rs".to_owned()]),
            ("a/c.rs".to_owned(), vec!["a/b.rs".to_owned()]),
        ]]
    );
}

/// What `code`, the code of `module` inside `service::engine`, does that machinery may not: name
/// a part of `service` outside the engine (a rule module, `App`), or implement `App`.
fn engine_faults(
    modules: &std::collections::BTreeSet<Vec<String>>,
    module: &[String],
    code: &str,
) -> Vec<String> {
    let engine = ["service".to_owned(), "engine".to_owned()];
    let mut faults = Vec::new();
    for path in paths_in(code) {
        if let Some(found) = target(modules, module, &path)
            && found.first().is_some_and(|m| m == "service")
            && !found.starts_with(&engine)
        {
            faults.push(format!("names {}", path.join("::")));
        }
    }
    for line in code.lines() {
        let mut words = line.split_whitespace();
        let implements = words
            .next()
            .is_some_and(|w| w == "impl" || w.starts_with("impl<"));
        if implements && words.any(|w| w == "App" || w.ends_with("::App")) {
            faults.push(format!("implements App: {}", line.trim()));
        }
    }
    faults
}

#[test]
fn the_engine_names_no_rule_module_and_holds_no_app_methods() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let modules: std::collections::BTreeSet<Vec<String>> =
        files.iter().map(|f| module_of(&src, f)).collect();
    let mut wrong = Vec::new();
    let mut seen = 0;
    for file in &files {
        let module = module_of(&src, file);
        if !module.starts_with(&["service".to_owned(), "engine".to_owned()]) {
            continue;
        }
        seen += 1;
        let text = std::fs::read_to_string(file).expect("a readable source");
        for fault in engine_faults(&modules, &module, &code_of(&text)) {
            wrong.push(format!(
                "{}: {fault}",
                file.strip_prefix(&src).unwrap_or(file).display()
            ));
        }
    }
    assert!(seen > 5, "service/engine holds {seen} files");
    assert!(
        wrong.is_empty(),
        "machinery reaching into the rules:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_engine_check_sees_what_it_should() {
    let modules: std::collections::BTreeSet<Vec<String>> = [
        vec![],
        vec!["service".to_owned()],
        vec!["service".to_owned(), "chains".to_owned()],
        vec!["service".to_owned(), "engine".to_owned()],
        vec![
            "service".to_owned(),
            "engine".to_owned(),
            "links".to_owned(),
        ],
        vec![
            "service".to_owned(),
            "engine".to_owned(),
            "cache".to_owned(),
        ],
        vec!["model".to_owned()],
    ]
    .into_iter()
    .collect();
    let links = ["service", "engine", "links"].map(str::to_owned);
    let fine = "use super::cache::Load;\nuse crate::model::Chain;\nimpl LinkTable {}";
    assert!(engine_faults(&modules, &links, fine).is_empty());
    let wrong = "use super::super::chains::X;\nuse crate::service::App;\nimpl super::super::App {}";
    let faults = engine_faults(&modules, &links, wrong);
    for expected in [
        "names super::super::chains::X",
        "names crate::service::App",
        "names super::super::App",
        "implements App: impl super::super::App {}",
    ] {
        assert!(
            faults.iter().any(|f| f == expected),
            "{expected}: {faults:?}"
        );
    }
}

/// The `App` methods a service file defines, each with whether it is an area's interface
/// (`pub` or `pub(crate)`) rather than a helper of its own area.
fn app_methods(code: &str) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    let mut inside = false;
    for line in code.lines() {
        if !inside {
            inside = [
                "impl App {",
                "impl super::App {",
                "impl crate::service::App {",
            ]
            .contains(&line.trim_end());
            continue;
        }
        if line == "}" {
            inside = false;
            continue;
        }
        let Some(item) = line.strip_prefix("    ") else {
            continue;
        };
        let (interface, rest) = match item {
            _ if item.starts_with("pub(crate) ") => (true, &item["pub(crate) ".len()..]),
            _ if item.starts_with("pub(super) ") => (false, &item["pub(super) ".len()..]),
            _ if item.starts_with("pub ") => (true, &item["pub ".len()..]),
            _ => (false, item),
        };
        let rest = rest.strip_prefix("async ").unwrap_or(rest);
        if let Some(name) = rest.strip_prefix("fn ") {
            let name: String = name
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            found.push((name, interface));
        }
    }
    found
}

/// The methods `code` calls on `self`, on an `app` or on a `self.app`.
fn app_calls(code: &str) -> Vec<String> {
    let mut calls = Vec::new();
    for receiver in ["self", "app"] {
        for (at, _) in code.match_indices(receiver) {
            let before = code[..at].chars().last();
            let field_of_self = receiver == "app" && code[..at].ends_with("self.");
            if !field_of_self
                && matches!(before, Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '.')
            {
                continue;
            }
            let rest = code[at + receiver.len()..].trim_start();
            let Some(rest) = rest.strip_prefix('.') else {
                continue;
            };
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && rest.trim_start()[name.len()..].starts_with('(') {
                calls.push(name);
            }
        }
    }
    calls
}

/// Calls from one area of `service` to a helper of another: `files` are (area, code), the
/// root module's area `""` (its methods are `App`'s plumbing, there for every area).
fn helper_calls(files: &[(String, String)]) -> Vec<String> {
    use std::collections::BTreeMap;
    let mut defined: BTreeMap<String, Vec<(String, bool)>> = BTreeMap::new();
    for (area, code) in files {
        for (name, interface) in app_methods(code) {
            defined
                .entry(name)
                .or_default()
                .push((area.clone(), interface));
        }
    }
    let mut wrong = Vec::new();
    for (area, code) in files {
        for name in app_calls(code) {
            let Some(defs) = defined.get(&name) else {
                continue;
            };
            let allowed = defs
                .iter()
                .any(|(of, interface)| *interface || of == area || of.is_empty());
            if !allowed {
                let of: Vec<&str> = defs.iter().map(|(of, _)| of.as_str()).collect();
                wrong.push(format!(
                    "{area} calls {name}, a helper of {}",
                    of.join(", ")
                ));
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    wrong
}

#[test]
fn no_area_of_the_service_calls_another_areas_helpers() {
    let service = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/service");
    let mut paths = Vec::new();
    sources(&service, &mut paths);
    let files: Vec<(String, String)> = paths
        .iter()
        .map(|path| {
            let relative = path.strip_prefix(&service).unwrap_or(path);
            let mut parts = relative.iter().map(|p| p.to_string_lossy().into_owned());
            let first = parts.next().unwrap_or_default();
            let area = match first.as_str() {
                "mod.rs" => String::new(),
                file => file.trim_end_matches(".rs").to_owned(),
            };
            let text = std::fs::read_to_string(path).expect("a readable source");
            (area, code_of(&text))
        })
        .collect();
    assert!(files.iter().any(|(area, _)| area == "chain_writes"));
    let wrong = helper_calls(&files);
    assert!(
        wrong.is_empty(),
        "areas reaching into each other (an area's interface is `pub(crate)`):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_helper_check_sees_what_it_should() {
    let chains = "impl App {\n    pub(crate) async fn own_chain(&self) {}\n    pub(super) fn \
                  record(&self) {}\n    fn alone(&self) {}\n    fn held(&self) {}\n}\n"
        .to_owned();
    let bulk = "impl App {\n    pub async fn bulk(&self) {\n        self.own_chain();\n        \
                self\n            .record();\n        app.alone();\n        self.now();\n        \
                self.app.held();\n    }\n}\n"
        .to_owned();
    let root = "impl App {\n    pub(super) fn now(&self) {}\n}\n".to_owned();
    let files = [
        ("chains".to_owned(), chains),
        ("bulk".to_owned(), bulk),
        (String::new(), root),
    ];
    assert_eq!(
        helper_calls(&files),
        [
            "bulk calls alone, a helper of chains",
            "bulk calls held, a helper of chains",
            "bulk calls record, a helper of chains"
        ]
    );
}
