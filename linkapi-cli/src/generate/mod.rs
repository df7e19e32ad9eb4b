//! Completion scripts and manual pages, rendered from the clap definitions. The committed
//! copies under `completions/` and `man/` are checked against these by a test.

#![allow(clippy::print_stdout)] // printing the rendered files is the point

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use clap_complete::Shell as ClapShell;

use crate::cli::{Shell, command};

mod fish;

/// File name of each shell's committed script under `completions/`.
pub fn completion_file(shell: Shell) -> &'static str {
    match shell {
        Shell::Bash => "linkapi.bash",
        Shell::Zsh => "_linkapi",
        Shell::Fish => "linkapi.fish",
        Shell::Powershell => "_linkapi.ps1",
        Shell::Elvish => "linkapi.elv",
    }
}

/// The completion script for `shell`: `clap_complete`'s, but linkapi's own for fish.
pub fn render_completion(shell: Shell) -> Vec<u8> {
    let target = match shell {
        Shell::Bash => ClapShell::Bash,
        Shell::Zsh => ClapShell::Zsh,
        Shell::Fish => {
            let mut root = command();
            root.build();
            return fish::script(&root).into_bytes();
        }
        Shell::Powershell => ClapShell::PowerShell,
        Shell::Elvish => ClapShell::Elvish,
    };
    let mut buf = Vec::new();
    clap_complete::generate(target, &mut command(), "linkapi", &mut buf);
    buf
}

/// Every manual page: (file name, roff). One for `linkapi` and one per subcommand, named
/// `linkapi-chain-create.1` and so on.
pub fn render_man_pages() -> Result<Vec<(String, Vec<u8>)>> {
    let mut pages = Vec::new();
    let root = command();
    walk(&root, "linkapi", &mut pages)?;
    Ok(pages)
}

fn walk(cmd: &clap::Command, name: &str, pages: &mut Vec<(String, Vec<u8>)>) -> Result<()> {
    // Pages name the release, not the commit, so they change with releases only.
    let cmd = cmd
        .clone()
        .name(name.to_owned())
        .bin_name(name.replace('-', " "))
        .version(env!("CARGO_PKG_VERSION"));
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut buf)
        .context("rendering a man page")?;
    pages.push((format!("{name}.1"), buf));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        walk(sub, &format!("{name}-{}", sub.get_name()), pages)?;
    }
    Ok(())
}

/// `linkapi completions SHELL`
///
/// # Errors
/// When stdout cannot be written.
pub fn print_completion(shell: Shell) -> Result<()> {
    std::io::stdout().write_all(&render_completion(shell))?;
    Ok(())
}

/// `linkapi man [--out-dir DIR]`
///
/// # Errors
/// When a page cannot be rendered or written.
pub fn man(out_dir: Option<&Path>) -> Result<()> {
    let pages = render_man_pages()?;
    match out_dir {
        None => {
            let (_, root) = pages.first().context("no man page rendered")?;
            std::io::stdout().write_all(root)?;
        }
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            for (name, page) in &pages {
                let path = dir.join(name);
                std::fs::write(&path, page)
                    .with_context(|| format!("writing {}", path.display()))?;
            }
        }
    }
    Ok(())
}
