//! fish completions, written from the clap definitions here rather than by `clap_complete`,
//! whose fish script offers no values for positional arguments (`linkapi completions <TAB>`
//! listed files) and stops at the second level of subcommands (`linkapi admin domain
//! set-status 1 <TAB>` offered `create` and `list` again).
//!
//! The script finds where a command line stands with one function, `__linkapi_at PATH [N]`:
//! true when the line's subcommands are PATH (words joined by spaces, empty at the top) and,
//! when N is given, N positional words follow them (`N+`: at least N). Each subcommand, option
//! and value list is then one `complete` line under that condition.

use std::fmt::Write;

use clap::{Arg, Command};

/// The fish script for `root`, the `linkapi` command (built: help subcommands and global
/// flags in place).
pub fn script(root: &Command) -> String {
    let mut paths = Vec::new();
    let mut valued = Vec::new();
    let mut lines = String::new();
    walk(root, "", &mut paths, &mut valued, &mut lines);
    valued.sort();
    valued.dedup();
    format!(
        "# fish completions for linkapi, written by `linkapi completions fish`.\n\n\
         # Every subcommand path, and the options that take a value (the word after one is\n\
         # not a subcommand or a positional word).\n\
         set -g __linkapi_paths {paths}\n\
         set -g __linkapi_valued {valued}\n\n{FUNCTIONS}\n{lines}",
        paths = paths
            .iter()
            .map(|p| quoted(p))
            .collect::<Vec<_>>()
            .join(" "),
        valued = valued.join(" "),
    )
}

/// The functions that tell where the command line stands.
const FUNCTIONS: &str = r#"# The subcommand path of the words before the cursor, then how many positional words
# follow it.
function __linkapi_where
    set -l words (commandline -opc)
    set -e words[1]
    set -l path ''
    set -l positional 0
    set -l skip 0
    for word in $words
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $word
            case '--*=*'
                continue
            case '-*'
                if contains -- $word $__linkapi_valued
                    set skip 1
                end
                continue
        end
        set -l deeper (string trim -- "$path $word")
        if test $positional -eq 0; and contains -- $deeper $__linkapi_paths
            set path $deeper
        else
            set positional (math $positional + 1)
        end
    end
    echo $path
    echo $positional
end

# True when the words before the cursor are at subcommand path $argv[1] and, if $argv[2]
# is given, that many positional words follow it ("2+": two or more).
function __linkapi_at
    set -l here (__linkapi_where)
    test "$here[1]" = "$argv[1]"; or return 1
    set -q argv[2]; or return 0
    set -l count (string replace '+' '' -- $argv[2])
    if string match -q -- '*+' $argv[2]
        test $here[2] -ge $count
    else
        test $here[2] -eq $count
    end
end
"#;

fn walk(
    cmd: &Command,
    path: &str,
    paths: &mut Vec<String>,
    valued: &mut Vec<String>,
    lines: &mut String,
) {
    let at = |count: Option<String>| match count {
        Some(count) => format!("__linkapi_at {} {count}", quoted(path)),
        None => format!("__linkapi_at {}", quoted(path)),
    };
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let _ = writeln!(
            lines,
            "complete -c linkapi -n {} -f -a {} -d {}",
            quoted(&at(Some("0".into()))),
            quoted(sub.get_name()),
            quoted(&summary(sub.get_about()))
        );
    }
    for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
        let values = possible_values(arg);
        if arg.is_positional() {
            let Some(values) = values else { continue };
            // clap counts positions from 1; the script counts the words already typed.
            let index = arg.get_index().unwrap_or(1).saturating_sub(1);
            let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
            let count = if many {
                format!("{index}+")
            } else {
                index.to_string()
            };
            let _ = writeln!(
                lines,
                "complete -c linkapi -n {} -f -a {}",
                quoted(&at(Some(count))),
                quoted(&values)
            );
            continue;
        }
        let mut line = format!("complete -c linkapi -n {}", quoted(&at(None)));
        if let Some(long) = arg.get_long() {
            let _ = write!(line, " -l {long}");
        }
        if let Some(short) = arg.get_short() {
            let _ = write!(line, " -s {short}");
        }
        if arg.get_action().takes_values() {
            // The next word is the value only when one is required and may stand apart
            // (`--json[=FIELDS]` takes its fields after `=` alone).
            let apart = !arg.is_require_equals_set()
                && arg.get_num_args().is_none_or(|n| n.min_values() > 0);
            if apart {
                valued.extend(arg.get_long().map(|l| format!("--{l}")));
                valued.extend(arg.get_short().map(|s| format!("-{s}")));
            }
            match &values {
                Some(values) => {
                    let _ = write!(line, " -x -a {}", quoted(values));
                }
                None => line.push_str(" -r"),
            }
        }
        let help = summary(arg.get_help());
        if !help.is_empty() {
            let _ = write!(line, " -d {}", quoted(&help));
        }
        lines.push_str(&line);
        lines.push('\n');
    }
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let deeper = if path.is_empty() {
            sub.get_name().to_owned()
        } else {
            format!("{path} {}", sub.get_name())
        };
        paths.push(deeper.clone());
        walk(sub, &deeper, paths, valued, lines);
    }
}

/// The values an argument takes, space-separated, when it lists them.
fn possible_values(arg: &Arg) -> Option<String> {
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_owned())
        .collect();
    (!values.is_empty()).then(|| values.join(" "))
}

/// The first line of a help text.
fn summary(text: Option<&clap::builder::StyledStr>) -> String {
    text.map(|t| t.to_string())
        .and_then(|t| t.lines().next().map(str::to_owned))
        .unwrap_or_default()
}

/// `text` in fish's single quotes.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}
