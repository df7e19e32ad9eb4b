//! The command tree. Completions and man pages are generated from these same definitions, so
//! help, completions and manuals cannot drift apart.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use linkapi_server::{DataCommand, ServeArgs};

mod admin;
mod chain;
mod data;
mod page_chains;
mod webhook;

pub use admin::*;
pub use chain::*;
pub use data::*;
pub use page_chains::*;
pub use webhook::*;

const ROOT_AFTER_HELP: &str = "\
Exit status:
  0  success
  1  failure: the server refused the request (other than auth), not found, network or I/O error
  2  usage error, or a confirmation that cannot be asked (no terminal and no --yes)
  4  authentication: no stored key, the key was refused (401) or lacks a scope (403)

Environment:
  LINKAPI_HOST         server URL, overriding the profile's
  LINKAPI_API_KEY      API key, overriding every stored key
  LINKAPI_PROFILE      profile to use (default: config.toml's default_profile, else \"default\")
  LINKAPI_CONFIG_DIR   where config.toml and credentials.toml live
  LINKAPI_KEYRING      \"none\" to never use the OS keyring (keys go to credentials.toml)
  LINKAPI_NO_INPUT     1/true/yes: never prompt (like --no-input); 0/false/no: prompt
  NO_COLOR             no colour in output

Start with `linkapi serve` in one terminal; in another, `linkapi chain create https://example.com`.";

/// Programmatic short links: run a linkapi server and drive it from the shell.
#[derive(Debug, Parser)]
#[command(
    name = "linkapi",
    version = linkapi_server::VERSION,
    propagate_version = true,
    after_help = ROOT_AFTER_HELP
)]
pub struct Cli {
    /// Options of every command.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands that talk to no server, so the options naming one mean nothing there.
const LOCAL_COMMANDS: [&str; 4] = ["serve", "data", "completions", "man"];

/// The options of [`GlobalArgs`] that only a call to a server uses.
const SERVER_OPTIONS: [&str; 3] = ["host", "profile", "no_input"];

/// The command tree as parsed, shown in help and rendered into completions and man pages:
/// [`Cli`]'s, with `--host`, `--profile` and `--no-input` hidden from the commands that call
/// no server (they are still accepted there, so a global flag never breaks a command line).
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    /// Gives `cmd` and its subcommands hidden copies of the server options. Clap propagates a
    /// global option only into subcommands that have no option of its id, so these copies
    /// take the place of the shown ones.
    fn hide_server_options(mut cmd: clap::Command, options: &[clap::Arg]) -> clap::Command {
        for option in options {
            cmd = cmd.arg(option.clone().global(false).hide(true));
        }
        let subcommands: Vec<String> = cmd
            .get_subcommands()
            .map(|sub| sub.get_name().to_owned())
            .collect();
        for name in subcommands {
            cmd = cmd.mut_subcommand(name, |sub| hide_server_options(sub, options));
        }
        cmd
    }
    let mut root = Cli::command();
    let options: Vec<clap::Arg> = root
        .get_arguments()
        .filter(|arg| SERVER_OPTIONS.contains(&arg.get_id().as_str()))
        .cloned()
        .collect();
    for name in LOCAL_COMMANDS {
        root = root.mut_subcommand(name, |sub| hide_server_options(sub, &options));
    }
    root
}

/// Options of every command.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// Server URL [default: the profile's host, else http://127.0.0.1:8080]
    #[arg(
        long,
        global = true,
        env = "LINKAPI_HOST",
        hide_env_values = true,
        value_name = "URL"
    )]
    pub host: Option<String>,

    /// Profile: a named server and key [default: config.toml's default_profile, else "default"]
    #[arg(
        long,
        global = true,
        env = "LINKAPI_PROFILE",
        hide_env_values = true,
        value_name = "NAME"
    )]
    pub profile: Option<String>,

    /// Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or
    /// yes; 0, false or no prompts as usual)
    #[arg(
        long,
        global = true,
        env = "LINKAPI_NO_INPUT",
        hide_env_values = true,
        action = clap::ArgAction::SetTrue,
        value_parser = switch
    )]
    pub no_input: bool,
}

/// An on/off environment variable as people write one: `1`, `true`, `yes` or `on` (any case)
/// is on; `0`, `false`, `no`, `off` or empty is off.
fn switch(value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "" | "0" | "false" | "no" | "off" => Ok(false),
        other => Err(format!(
            "{other:?} is neither on (1, true, yes) nor off (0, false, no)"
        )),
    }
}

/// The command groups.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Log in to a server, see where keys come from, log out
    #[command(subcommand)]
    Auth(AuthCommand),
    /// Create, list, inspect, edit and delete short links
    #[command(subcommand)]
    Chain(ChainCommand),
    /// Create and list groups of chains
    #[command(subcommand)]
    Group(GroupCommand),
    /// List the domains you may create chains on
    #[command(subcommand)]
    Domain(DomainCommand),
    /// Show visits: a chain's totals and daily trend, where they came from, or your top chains
    #[command(after_help = "\
With a CHAIN: its totals and a chart of visits per day, fitted to the terminal; with --by, its
visits of the window per referrer, device, OS, browser, country, language or redirect rule,
most first. Without a CHAIN: your visits of the window across all your chains, and the chains
with the most.

Visits by bots (crawlers, link previews, HEAD requests, tools such as curl) are counted
apart, in the BOTS column, and in no other figure: open a link in a browser to count a
visit. Visits reach the statistics within about a second. Days are calendar days in the
server's time zone. Piped, each day is a line: DAY, VISITS, BOTS; with --by, each value:
VALUE, VISITS; without a CHAIN, each chain: CODE, VISITS, URL.

Examples:
  linkapi stats spring-27
  linkapi stats 12 --days 30
  linkapi stats spring-27 --by referrers --days 30
  linkapi stats spring-27 --by countries --limit 20 --json
  linkapi stats
  linkapi stats spring-27 --json=total_clicks,unique_visitors")]
    Stats(StatsArgs),
    /// Bring your links over from chhoto-url, Kutt, YOURLS, Shlink, Bitly or a linkapi export
    #[command(after_help = "\
Reads what each shortener gives its operators and imports the links with their own codes (case
and all), targets, titles, creation times, expiry and visit totals (kept as imported visits,
apart from the visits counted here):

  chhoto   its GET /api/all JSON
  kutt     its GET /api/v2/links JSON pages (or the admin listing's), one file a page
  yourls   a mariadb-dump or mysqldump of its yourls_url table
  shlink   its GET /rest/v3/short-urls JSON pages
  bitly    its links CSV export
  linkapi  a `linkapi chain export` (JSON lines or CSV)

Links go to the domain the peer had them on when this deployment has it for you (a link whose
domain it has not is reported), or to the default domain when the peer names none; --domain
puts every link on one of your domains, --map-domain FROM=TO those of one domain. An import is idempotent: a
link whose code you already have there with the same target is reported as there already, so
running an import again (after an interruption, say) imports nothing twice. A code taken by
anything else is a clash, reported and never renamed. Password-protected links are not
imported, since linkapi links have no passwords yet.

Each link that was not imported, or was imported with a change (a title's line breaks, a
target's encoding, an expired link), is printed as SOURCE, RESULT, CODE and why; --json prints
every link as a JSON object. A summary and what the peer itself could not keep go to standard
error. The exit status is 1 when any link was not imported.

Examples:
  linkapi import --from chhoto api-all.json
  linkapi import --from kutt links.page1.json links.page2.json
  linkapi import --from yourls yourls_url.sql --dry-run
  linkapi import --from shlink short-urls.*.json --json > report.jsonl
  linkapi import --from bitly bitly-links.csv --map-domain bit.ly=go.example.com
  linkapi import --from linkapi chains.jsonl --map-domain old.example.com=go.example.com")]
    Import(ImportArgs),
    /// Messaging-app chains: QR codes that rotate, account IDs, mini-programs, shops
    #[command(subcommand)]
    Wx(WxCommand),
    /// Card chains: messaging-app chains in the card namespace
    #[command(subcommand)]
    Card(CardCommand),
    /// Work-chat chains, your assembly list and customer-transfer results
    #[command(subcommand)]
    Workchat(WorkchatCommand),
    /// Report ad conversions for a chain and list what was recorded
    #[command(subcommand)]
    Conversion(ConversionCommand),
    /// List the jump-page templates you may use
    #[command(subcommand)]
    Template(TemplateCommand),
    /// Send events of your writes to your own endpoints, and receive them locally
    #[command(subcommand)]
    Webhook(WebhookCommand),
    /// Upload images (many at once, with progress bars), list and delete uploads
    #[command(
        args_conflicts_with_subcommands = true,
        subcommand_negates_reqs = true,
        after_help = "\
Images are PNG, JPEG, GIF or WebP, decided by their bytes (SVG is refused), at most
--max-size bytes each. Each file is checked before it is sent; uploads that meet a rate
limit (429), an unavailable server (503) or a dropped connection are retried with backoff,
honouring Retry-After. The exit status is 1 when any file failed. A file named like a
subcommand needs a path: ./list.

Examples:
  linkapi upload banner.png qr/*.png
  linkapi upload --dir ./images --recursive --jobs 8
  linkapi upload --dir ./images --json > uploaded.jsonl
  linkapi upload list
  linkapi upload delete 42"
    )]
    Upload(UploadArgs),
    /// Manage users, API keys and domains (needs a key with scope admin)
    #[command(subcommand)]
    Admin(AdminCommand),
    /// Run the server locally (same flags as linkapi-server)
    #[command(after_help = "\
On a new data directory the first start creates an admin key, prints it once and stores it in
profile \"local\" (in the OS keyring, or credentials.toml when no keyring works), so commands in
another terminal work at once.

Examples:
  linkapi serve
  linkapi serve --listen 127.0.0.1:9000 --data-dir ./data
  linkapi serve --public-url https://go.example.com --listen 0.0.0.0:8080")]
    Serve(ServeArgs),
    /// Back up, restore, or move to PostgreSQL the data of a local server (same as linkapi-server's commands)
    #[command(
        subcommand,
        after_help = "\
Examples:
  linkapi data backup --to linkapi-$(date +%F).db
  linkapi data restore --from linkapi-2026-11-20.db        # with the server stopped
  linkapi data migrate --from sqlite:$HOME/.local/share/linkapi --to postgres://linkapi@db/linkapi"
    )]
    Data(DataCommand),
    /// Print a shell completion script
    #[command(after_help = "\
Install:
  bash        linkapi completions bash > ~/.local/share/bash-completion/completions/linkapi
  zsh         linkapi completions zsh > \"${fpath[1]}/_linkapi\"
  fish        linkapi completions fish > ~/.config/fish/completions/linkapi.fish
  powershell  linkapi completions powershell >> $PROFILE
  elvish      linkapi completions elvish >> ~/.config/elvish/rc.elv")]
    Completions {
        /// The shell
        shell: Shell,
    },
    /// Print the manual page, or write every page into a directory
    #[command(after_help = "\
Without --out-dir, linkapi.1 goes to standard output: `linkapi man | man -l -` reads it.
With --out-dir, linkapi.1 and one page per subcommand (linkapi-chain-create.1, ...) are
written there; a directory on the manual path makes `man linkapi` work:

  linkapi man --out-dir ~/.local/share/man/man1
  man linkapi-chain-import")]
    Man {
        /// Write linkapi.1 and one page per subcommand here instead of printing linkapi.1
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
    },
}

/// Shells with completion scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    /// Bash
    Bash,
    /// Zsh
    Zsh,
    /// Fish
    Fish,
    /// PowerShell
    Powershell,
    /// Elvish
    Elvish,
}

/// `--json` with optional field selection.
#[derive(Debug, Clone, Default, Args)]
pub struct JsonArgs {
    /// Print JSON; with =FIELDS (comma-separated) only those fields
    #[arg(
        long,
        value_name = "FIELDS",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = ""
    )]
    pub json: Option<String>,
}

/// `linkapi auth ...`
#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Store an API key for a server, checked against the server first
    #[command(after_help = "\
The key is read from a hidden prompt, or with --with-key from standard input; never from the
command line, where it would land in shell history and process listings.

Examples:
  linkapi auth login --host https://links.example.com
  echo \"$KEY\" | linkapi auth login --host https://links.example.com --with-key
  linkapi auth login --profile staging --host https://staging.example.com")]
    Login {
        /// Read the key from standard input
        #[arg(long)]
        with_key: bool,
        /// Store the key in credentials.toml (mode 0600) instead of the OS keyring
        #[arg(long)]
        insecure_storage: bool,
    },
    /// Show each profile's server, where its key comes from, and whether the key works
    Status {
        /// Show keys in full instead of masked
        #[arg(long)]
        show_key: bool,
    },
    /// Forget the stored key of the profile (the key itself stays valid on the server)
    Logout,
    /// Print the key the current profile would use
    Token,
}

/// A domain named by its id (`12`) or its host name (`brand.example`), as `--domain` takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DomainArg {
    /// Its id.
    Id(i64),
    /// Its host name, in lower case.
    Host(String),
}

impl std::str::FromStr for DomainArg {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("give a domain id or host name".into());
        }
        Ok(match text.parse::<i64>() {
            Ok(id) => DomainArg::Id(id),
            Err(_) => DomainArg::Host(text.to_ascii_lowercase()),
        })
    }
}

/// Names a chain by id or by code.
#[derive(Debug, Clone, Args)]
pub struct ChainRef {
    /// Chain id, or its code (all digits is taken as an id; use --code for digit codes)
    pub chain: String,
    /// Take CHAIN as a code even when it is all digits
    #[arg(long)]
    pub code: bool,
    /// Domain id or host name, when you have the code on several domains
    #[arg(long, value_name = "DOMAIN")]
    pub domain: Option<DomainArg>,
}

/// `linkapi group ...`
#[derive(Debug, Subcommand)]
pub enum GroupCommand {
    /// Create a group
    Create {
        /// Name (unique among your groups)
        name: String,
        /// Kind of chains it holds: 1 short, 2 external, 3 work-chat, 4 card
        #[arg(long, default_value_t = 1)]
        chain_type: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// List your groups
    List {
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Show one of your groups: its name, kind and live chains
    Info {
        /// Group id (from `linkapi group list`)
        id: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
}

/// `linkapi domain ...`
#[derive(Debug, Subcommand)]
pub enum DomainCommand {
    /// List the domains you may use
    List {
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
}

/// `linkapi template ...`
#[derive(Debug, Subcommand)]
pub enum TemplateCommand {
    /// List the templates offered to you, and which your chains use
    List {
        /// Page to show
        #[arg(long, default_value_t = 1)]
        page: i64,
        /// Templates per page (at most 100)
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(i64).range(1..=100))]
        limit: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
}

/// `linkapi upload ...`
#[derive(Debug, Args)]
pub struct UploadArgs {
    /// List or delete uploads instead of uploading.
    #[command(subcommand)]
    pub command: Option<UploadCommand>,
    /// Image files to upload
    #[arg(value_name = "FILE", required_unless_present = "dir")]
    pub files: Vec<PathBuf>,
    /// Upload every file in this directory
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// With --dir, descend into subdirectories too
    #[arg(long, requires = "dir")]
    pub recursive: bool,
    /// Files uploaded at once (1 to 32)
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=32))]
    pub jobs: u16,
    /// Largest file to send, in bytes (the server's default cap)
    #[arg(long, value_name = "BYTES", default_value_t = 10 << 20)]
    pub max_size: u64,
    /// Tries per file on 429, 503 and connection errors (1 to 10)
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub tries: u8,
    /// Print each file's result as a line of JSON: file, ok, and url or error
    #[arg(long)]
    pub json: bool,
}

/// `linkapi upload list|delete`
#[derive(Debug, Subcommand)]
pub enum UploadCommand {
    /// List your uploads, newest first
    List {
        /// Page to show
        #[arg(long, default_value_t = 1)]
        page: i64,
        /// Uploads per page (at most 100)
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(i64).range(1..=100))]
        limit: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Delete uploads by id; the bytes go when no upload of anyone names them
    Delete {
        /// Upload ids (file_id)
        #[arg(required = true, value_name = "FILE_ID")]
        ids: Vec<i64>,
        /// Do not ask for confirmation
        #[arg(long, short = 'y')]
        yes: bool,
    },
}

/// `linkapi conversion ...`
#[derive(Debug, Subcommand)]
pub enum ConversionCommand {
    /// Report a conversion; a repeat of the same chain, type and out id is recognised as a
    /// duplicate and not recorded twice
    #[command(after_help = "\
Examples:
  linkapi conversion report spring-27 --type purchase --out-id order-17 --value-cents 4990
  linkapi conversion report 12 --type signup --ad-platform meta --clickid ck_91")]
    Report {
        /// The chain the conversion is attributed to.
        #[command(flatten)]
        chain: ChainRef,
        /// Business event: lower-case letters, digits and _ (purchase, signup, form, ...)
        #[arg(long = "type", value_name = "TYPE")]
        conv_type: String,
        /// Your idempotency token (required for purchase)
        #[arg(long, value_name = "ID")]
        out_id: Option<String>,
        /// Ad platform the conversion came from (a path segment of the API)
        #[arg(long, value_name = "NAME", default_value = "manual")]
        ad_platform: String,
        /// Ad-click attribution id
        #[arg(long, value_name = "ID")]
        clickid: Option<String>,
        /// Your own user id of the converting customer
        #[arg(long, value_name = "ID")]
        external_user: Option<String>,
        /// Value in cents
        #[arg(long, value_name = "CENTS")]
        value_cents: Option<i64>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// List the conversions recorded for a chain, newest first
    List {
        /// The chain.
        #[command(flatten)]
        chain: ChainRef,
        /// Page to show
        #[arg(long, default_value_t = 1)]
        page: i64,
        /// Conversions per page (1 to 100)
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(i64).range(1..=100))]
        limit: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn the_command_tree_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn json_takes_an_optional_field_list() {
        let cli = Cli::try_parse_from(["linkapi", "chain", "list", "--json"]).expect("parses");
        let Command::Chain(ChainCommand::List { json, .. }) = cli.command else {
            panic!("wrong command");
        };
        assert_eq!(json.json.as_deref(), Some(""));
        let cli =
            Cli::try_parse_from(["linkapi", "chain", "list", "--json=code,id"]).expect("parses");
        let Command::Chain(ChainCommand::List { json, .. }) = cli.command else {
            panic!("wrong command");
        };
        assert_eq!(json.json.as_deref(), Some("code,id"));
    }

    #[test]
    fn keys_are_never_taken_from_arguments() {
        assert!(Cli::try_parse_from(["linkapi", "auth", "login", "--key", "lk_x"]).is_err());
    }
}
