//! Every operation has a `linkapi` command, or is on the list below of what only the API
//! (or a browser, or a monitor) calls, each with its reason: an operation added without a
//! command fails here until it has one or a line here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use linkapi_core::wire::operations::OPERATIONS;

/// Operations no command calls, and why.
const API_ONLY: &[(&str, &str)] = &[
    ("home", "a page for people who open the bare domain"),
    ("favicon", "a browser's request"),
    (
        "redirect",
        "visitors follow short links; `linkapi chain info` shows where one goes",
    ),
    (
        "files.get",
        "hosted images are fetched by browsers and jump pages",
    ),
    ("metrics", "scraped by Prometheus"),
    (
        "readyz",
        "a load balancer's probe (`linkapi-server healthcheck` is the container's)",
    ),
    ("openapi", "read by client generators"),
    (
        "admin.templates.preview",
        "an HTML page (a template with sample text) to open in a browser",
    ),
];

/// The compatibility surface is the vendor's clients'; the CLI drives the primary surface,
/// which does everything it does (and `chain info --code` reads through it by code).
fn compat(name: &str) -> bool {
    name.starts_with("compat.") || name.starts_with("vendor.")
}

/// Each client method with the operations it names (`op::CONSTANT`).
fn client_methods(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut methods = BTreeMap::new();
    let dir = root.join("linkapi-core/src/client");
    for entry in std::fs::read_dir(&dir).expect("the client's sources") {
        let text = std::fs::read_to_string(entry.expect("an entry").path()).expect("a source");
        let mut current: Option<String> = None;
        for line in text.lines() {
            if let Some(rest) = line.trim_start().strip_prefix("pub async fn ") {
                current = Some(
                    rest.chars()
                        .take_while(|c| *c != '(' && *c != '<')
                        .collect(),
                );
            } else if let Some(rest) = line.trim_start().strip_prefix("pub fn ") {
                current = Some(
                    rest.chars()
                        .take_while(|c| *c != '(' && *c != '<')
                        .collect(),
                );
            }
            let Some(method) = &current else { continue };
            for (at, _) in line.match_indices("op::") {
                let constant: String = line[at + 4..]
                    .chars()
                    .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                methods
                    .entry(method.clone())
                    .or_insert_with(BTreeSet::new)
                    .insert(constant);
            }
        }
    }
    methods
}

fn cli_sources(dir: &Path, text: &mut String) {
    for entry in std::fs::read_dir(dir).expect("the CLI's sources") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            cli_sources(&path, text);
        } else if path.extension().is_some_and(|e| e == "rs") {
            text.push_str(&std::fs::read_to_string(&path).expect("a source"));
        }
    }
}

/// The names `code` binds a client to: `client`, and each `let NAME = ` whose value is one
/// (`let keyed = client.with_idempotency_key(..)`, `let c = ctx.client()?;`).
fn client_names(code: &str) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = ["client".to_owned()].into();
    for line in code.lines() {
        let Some(rest) = line.trim_start().strip_prefix("let ") else {
            continue;
        };
        let Some((name, value)) = rest.split_once(" = ") else {
            continue;
        };
        let value = value.trim_start();
        if ["client.with_", "ctx.client()?;", "ctx.create_client()?;"]
            .iter()
            .any(|start| value.starts_with(start))
        {
            names.insert(name.trim_start_matches("mut ").trim().to_owned());
        }
    }
    names
}

/// Whether `code` calls `method` on a client (`client.method(`, `ctx.client()?.method(`, also
/// across a line break), not merely a method of that name on something else (`err.chain(`,
/// an iterator's `.chain(`).
fn calls_on_a_client(code: &str, method: &str) -> bool {
    let clients = client_names(code);
    code.match_indices(&format!(".{method}(")).any(|(at, _)| {
        let before = code[..at].trim_end();
        before.ends_with("client()?")
            || clients.iter().any(|name| {
                before.ends_with(name.as_str())
                    && !before[..before.len() - name.len()]
                        .ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            })
    })
}

#[test]
fn calls_are_seen_on_clients_only() {
    assert!(calls_on_a_client("client.chain(id)", "chain"));
    assert!(calls_on_a_client("let c = ctx.client()?.cards()", "cards"));
    assert!(calls_on_a_client(
        "let found = client\n            .chain(id)",
        "chain"
    ));
    assert!(!calls_on_a_client("err.chain().count()", "chain"));
    assert!(!calls_on_a_client("rows.iter()\n    .chain([1])", "chain"));
    let keyed =
        "let keyed = client.with_idempotency_key(k);\nlet a = keyed\n    .create_chains(&r)";
    assert!(calls_on_a_client(keyed, "create_chains"));
}

#[test]
fn every_operation_has_a_command_or_is_the_apis_alone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let methods = client_methods(&root);
    let mut cli = String::new();
    cli_sources(&root.join("linkapi-cli/src"), &mut cli);
    let reached: BTreeSet<String> = methods
        .iter()
        .filter(|(method, _)| calls_on_a_client(&cli, method))
        .flat_map(|(_, ops)| ops.iter().cloned())
        .collect();
    assert!(
        reached.len() > 40,
        "commands reach {} operations",
        reached.len()
    );
    let listed: BTreeSet<&str> = API_ONLY.iter().map(|(name, _)| *name).collect();
    let mut missing = Vec::new();
    let mut listed_but_reached = Vec::new();
    for op in OPERATIONS {
        let constant = op.name.to_uppercase().replace('.', "_");
        let has_command = reached.contains(&constant);
        if listed.contains(op.name) && has_command {
            listed_but_reached.push(op.name);
        }
        if !has_command && !listed.contains(op.name) && !compat(op.name) {
            missing.push(format!("{} {} ({})", op.method, op.path, op.name));
        }
    }
    assert!(
        missing.is_empty(),
        "operations without a command and not on API_ONLY:\n{}",
        missing.join("\n")
    );
    assert!(
        listed_but_reached.is_empty(),
        "on API_ONLY but a command calls them: {listed_but_reached:?}"
    );
    for name in listed {
        assert!(
            OPERATIONS.iter().any(|op| op.name == name),
            "API_ONLY names {name}, which is no operation"
        );
    }
}
