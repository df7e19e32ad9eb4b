//! The documents' links lead somewhere: every relative link in `README.md` and `docs/*.md`
//! names a file that exists and, with `#anchor`, a heading of it (GitHub's slugs). Run with
//! `cargo test -p linkapi-core --test docs`.

use std::path::{Path, PathBuf};

/// GitHub's anchor of a heading: lower case, spaces as hyphens, other punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown text's headings (outside fenced code).
fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            found.push(slug(line.trim_start_matches('#')));
        }
    }
    found
}

/// The targets of a Markdown text's inline links and images (outside fenced code).
fn links(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            found.push(after[..end].to_owned());
            rest = &after[end..];
        }
    }
    found
}

fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_relative_link_names_a_file_and_heading_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut wrong = Vec::new();
    for document in documents(&root) {
        let text = std::fs::read_to_string(&document).expect("a readable document");
        let dir = document.parent().expect("a directory");
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") || link.is_empty() {
                continue;
            }
            let (file, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let target = if file.is_empty() {
                document.clone()
            } else {
                dir.join(file)
            };
            let shown = document.strip_prefix(&root).unwrap_or(&document).display();
            if !target.exists() {
                wrong.push(format!("{shown}: {link}: no such file"));
                continue;
            }
            let is_markdown = target.extension().is_some_and(|e| e == "md");
            if !anchor.is_empty() && is_markdown {
                let headings = anchors(&std::fs::read_to_string(&target).expect("readable"));
                if !headings.iter().any(|h| h == anchor) {
                    wrong.push(format!("{shown}: {link}: no such heading"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "links that lead nowhere:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_check_reads_links_and_headings_as_github_does() {
    assert_eq!(
        slug(" The original vendor's `operation` names"),
        "the-original-vendors-operation-names"
    );
    assert_eq!(
        slug(" Measurements behind decisions"),
        "measurements-behind-decisions"
    );
    assert_eq!(
        links("see [a](b.md#c) and ![d](e.png)\n```\n[x](y)\n```"),
        ["b.md#c", "e.png"]
    );
}
