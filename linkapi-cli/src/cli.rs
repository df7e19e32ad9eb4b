//! The command tree. Completions and man pages are generated from these same definitions, so
//! help, completions and manuals cannot drift apart.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use linkapi_server::ServeArgs;

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
  LINKAPI_NO_INPUT     never prompt (like --no-input)
  NO_COLOR             no colour in output

Start with `linkapi serve` in one terminal; in another, `linkapi chain create https://example.com`.";

/// Programmatic short links: run a linkapi server and drive it from the shell.
#[derive(Debug, Parser)]
#[command(
    name = "linkapi",
    version,
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

    /// Never prompt; fail instead where a prompt would be needed
    #[arg(long, global = true, env = "LINKAPI_NO_INPUT", hide_env_values = true)]
    pub no_input: bool,
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
    /// Show a chain's visits: totals, unique visitors and the daily trend
    #[command(after_help = "\
Visits by crawlers, link previews and HEAD requests are not counted. Visits reach the
statistics within about a second. Days are calendar days in the server's time zone.

Examples:
  linkapi stats spring-27
  linkapi stats 12 --days 30
  linkapi stats spring-27 --json=total_clicks,unique_visitors")]
    Stats {
        /// The chain.
        #[command(flatten)]
        chain: ChainRef,
        /// Days of daily trend, today included (1 to 365)
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(i64).range(1..=365))]
        days: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
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

/// Names a chain by id or by code.
#[derive(Debug, Clone, Args)]
pub struct ChainRef {
    /// Chain id, or its code (all digits is taken as an id; use --code for digit codes)
    pub chain: String,
    /// Take CHAIN as a code even when it is all digits
    #[arg(long)]
    pub code: bool,
    /// Domain id, when you have the code on several domains
    #[arg(long, value_name = "ID")]
    pub domain: Option<i64>,
}

/// Image formats of `linkapi chain qr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum QrImageFormat {
    /// PNG
    Png,
    /// SVG
    Svg,
}

/// `linkapi chain ...`
#[derive(Debug, Subcommand)]
pub enum ChainCommand {
    /// Create a short link
    #[command(after_help = "\
Examples:
  linkapi chain create https://example.com/spring --title \"Spring sale\"
  linkapi chain create https://example.com --code spring-27 --expires \"2027-06-01 00:00:00\"
  linkapi chain create https://example.com --json=render_url")]
    Create {
        /// Destination (http or https)
        target_url: String,
        /// Label
        #[arg(long)]
        title: Option<String>,
        /// Custom code instead of a random one
        #[arg(long = "code", value_name = "CODE")]
        custom_code: Option<String>,
        /// Domain id [default: the server's default domain]
        #[arg(long, value_name = "ID")]
        domain: Option<i64>,
        /// Group id
        #[arg(long, value_name = "ID")]
        group: Option<i64>,
        /// Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds [default: never]
        #[arg(long, value_name = "TIME")]
        expires: Option<String>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Create many chains from CSV or JSON lines, one chain per line
    #[command(after_help = "\
CSV needs a header row naming its columns: target_url (required), title, code, domain_id,
group_id, valid_time. JSON lines hold one object per line with the fields of POST /chains
(target_url, chain_title, code, domain_id, group_id, valid_time). Blank lines are skipped.

Each line's result goes to standard output (line number, ok or error, code and URL or the
reason); a summary goes to standard error. The exit status is 1 when any line failed.

Examples:
  linkapi chain import links.csv
  linkapi chain import links.jsonl --json > results.jsonl
  generate-links | linkapi chain import --format jsonl")]
    Import {
        /// File to read, or - for standard input
        #[arg(default_value = "-")]
        file: PathBuf,
        /// Input format [default: from the file extension, else by the first character]
        #[arg(long, value_enum)]
        format: Option<ImportFormat>,
        /// Print each line's result as a JSON object
        #[arg(long)]
        json: bool,
    },
    /// List your short links, newest first
    #[command(after_help = "\
Examples:
  linkapi chain list
  linkapi chain list --query spring --limit 100
  linkapi chain list --all --json=code,target_url")]
    List {
        /// Page to show
        #[arg(long, default_value_t = 1)]
        page: i64,
        /// Chains per page (1 to 100)
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(i64).range(1..=100))]
        limit: i64,
        /// Every page
        #[arg(long, conflicts_with = "page")]
        all: bool,
        /// Only chains in this group
        #[arg(long, value_name = "ID")]
        group: Option<i64>,
        /// Only chains whose title or code contains this
        #[arg(long, short)]
        query: Option<String>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Show one chain
    Info {
        /// The chain.
        #[command(flatten)]
        chain: ChainRef,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Show a chain's QR code in the terminal, or write it as PNG or SVG
    #[command(after_help = "\
On a terminal the code is drawn with block characters, followed by the link. With --output, or
when stdout is not a terminal, the image itself is written (PNG unless --format svg or an
.svg file name).

Examples:
  linkapi chain qr spring-27
  linkapi chain qr 12 --output spring.png --size 512
  linkapi chain qr spring-27 --format svg > spring.svg")]
    Qr {
        /// The chain.
        #[command(flatten)]
        chain: ChainRef,
        /// Write the image to this file
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Image format [default: from the --output extension, else png]
        #[arg(long, value_enum)]
        format: Option<QrImageFormat>,
        /// Side of the image in pixels (64 to 2048)
        #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(64..=2048))]
        size: u32,
    },
    /// Change a chain's title, destination or expiry
    #[command(after_help = "\
Examples:
  linkapi chain edit 12 --target-url https://example.com/summer
  linkapi chain edit spring-27 --expires 0")]
    Edit {
        /// The chain.
        #[command(flatten)]
        chain: ChainRef,
        /// New label
        #[arg(long)]
        title: Option<String>,
        /// New destination
        #[arg(long)]
        target_url: Option<String>,
        /// New expiry (as for create; 0 is never)
        #[arg(long, value_name = "TIME")]
        expires: Option<String>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Delete chains (their codes are never reused)
    Delete {
        /// Chain ids or codes
        #[arg(required = true)]
        chains: Vec<String>,
        /// Take every CHAIN as a code
        #[arg(long)]
        code: bool,
        /// Domain id, when you have the codes on several domains
        #[arg(long, value_name = "ID")]
        domain: Option<i64>,
        /// Do not ask for confirmation
        #[arg(long, short)]
        yes: bool,
    },
}

/// Formats `chain import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ImportFormat {
    /// Comma-separated values with a header row
    Csv,
    /// One JSON object per line
    Jsonl,
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

/// `linkapi admin ...`
#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Users
    #[command(subcommand)]
    User(AdminUserCommand),
    /// API keys
    #[command(subcommand)]
    Key(AdminKeyCommand),
    /// Domains
    #[command(subcommand)]
    Domain(AdminDomainCommand),
    /// Jump-page templates: add, list, edit and retire custom ones
    #[command(subcommand)]
    Template(AdminTemplateCommand),
    /// Work-chat data: users' assembly lists and transfer records
    #[command(subcommand)]
    Workchat(AdminWorkchatCommand),
    /// Count visitors with a new secret from now on (a visitor seen before counts once more
    /// as unique)
    RotateVisitorSecret,
}

/// `linkapi admin user ...`
#[derive(Debug, Subcommand)]
pub enum AdminUserCommand {
    /// Create a user
    Create {
        /// Unique name
        name: String,
        /// Chains the user may create per day (in the server's time zone) [default: the server's]
        #[arg(long, value_name = "N")]
        daily_quota: Option<i64>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// List users
    List {
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
}

/// `linkapi admin key ...`
#[derive(Debug, Subcommand)]
pub enum AdminKeyCommand {
    /// Create a key; its secret is printed this once
    #[command(after_help = "\
Scopes: chains:read chains:write groups:read groups:write domains:read templates:read
templates:write uploads:write stats:read conversions:write workchat:read card:read card:write
admin * (write does not imply read).

Examples:
  linkapi admin key create --user 2 --scope chains:read --scope chains:write --name bot
  linkapi admin key create --user 2 --scope '*' --expires \"2027-12-31 00:00:00\" --json=api_key")]
    Create {
        /// The user the key acts as
        #[arg(long, value_name = "ID")]
        user: i64,
        /// A scope; repeat for more
        #[arg(long = "scope", value_name = "SCOPE", required = true)]
        scopes: Vec<String>,
        /// Label
        #[arg(long)]
        name: Option<String>,
        /// Expiry (as for chain create) [default: never]
        #[arg(long, value_name = "TIME")]
        expires: Option<String>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// List keys (never their secrets)
    List {
        /// Only this user's
        #[arg(long, value_name = "ID")]
        user: Option<i64>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Revoke a key at once
    Revoke {
        /// Key id
        id: i64,
        /// Do not ask for confirmation
        #[arg(long, short)]
        yes: bool,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
}

/// `linkapi admin domain ...`
#[derive(Debug, Subcommand)]
pub enum AdminDomainCommand {
    /// Register a domain (point its DNS at the server first)
    Create {
        /// Host, optionally with a port
        domain: String,
        /// Scheme of its short links
        #[arg(long, default_value = "https")]
        scheme: String,
        /// Label
        #[arg(long)]
        scene: Option<String>,
        /// Offer it to every user
        #[arg(long, conflicts_with = "user")]
        shared: bool,
        /// Owner of a private domain [default: you]
        #[arg(long, value_name = "ID")]
        user: Option<i64>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// List every domain
    List {
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Switch a domain on (its links serve) or off (they answer 404)
    SetStatus {
        /// Domain id
        id: i64,
        /// New status
        #[arg(value_enum)]
        status: DomainSwitch,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
}

/// `linkapi admin template ...`
#[derive(Debug, Subcommand)]
pub enum AdminTemplateCommand {
    /// Add a custom template
    #[command(after_help = "\
Examples:
  linkapi admin template add Spring --style card --thumb https://cdn.example.com/spring.png
  linkapi admin template add Branded --body-file page.html --user 7")]
    Add {
        /// Name (1 to 64 characters)
        name: String,
        /// Built-in layout: generic, card or poster [default: generic]
        #[arg(long)]
        style: Option<String>,
        /// Thumbnail URL
        #[arg(long, value_name = "URL")]
        thumb: Option<String>,
        /// Page source (a minijinja template) read from this file
        #[arg(long, value_name = "FILE")]
        body_file: Option<PathBuf>,
        /// Offer it to this user only [default: everyone]
        #[arg(long, value_name = "ID")]
        user: Option<i64>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// List every template, retired ones included
    List {
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Change a custom template
    Edit {
        /// Template id
        id: i64,
        /// New name
        #[arg(long)]
        name: Option<String>,
        /// New layout
        #[arg(long)]
        style: Option<String>,
        /// New thumbnail URL (empty removes it)
        #[arg(long, value_name = "URL")]
        thumb: Option<String>,
        /// New page source from this file
        #[arg(long, value_name = "FILE")]
        body_file: Option<PathBuf>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Retire a custom template: no longer offered; chains that use it keep it
    Retire {
        /// Template id
        id: i64,
    },
}

/// The two domain states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DomainSwitch {
    /// Status 1: links serve
    Effective,
    /// Status 99: links answer 404, no new chains
    NotEffective,
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

/// Destination kinds of messaging-app chains (`sub_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SubTypeArg {
    /// 1: a QR code to scan (--qr-url or --channel)
    ScanQr,
    /// 2: an account ID to add (--wx-id)
    Account,
    /// 3: a mini-program (--mini-appid, --mini-path)
    MiniProgram,
    /// 4: a shop (--shop-appid, --shop-path)
    Shop,
    /// 5: a work-chat acquisition URL (--qwhk-url)
    WorkchatUrl,
}

/// Channel rotation (`visit_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RotationArg {
    /// 1: in sort order, each until its limit or expiry
    Sort,
    /// 3: weighted random by ratio
    Weighted,
    /// 4: round robin
    RoundRobin,
    /// 5: uniform random
    Uniform,
}

/// What a channel's visit limit caps (`qrcode_vc_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CapArg {
    /// 1: visits ever
    Total,
    /// 2: visits per day
    Daily,
}

/// Image layout (`show_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowTypeArg {
    /// 1: a small image (the QR code) with the sub-title
    Small,
    /// 2: a long image across the page
    Long,
}

/// The fields of a messaging-app chain that `wx create`, `wx edit` and `card create` take.
#[derive(Debug, Clone, Default, Args)]
pub struct WxFields {
    /// Full input as JSON (the body of POST /wx-chains, channel_list included), or - for
    /// standard input; flags override its fields
    #[arg(long, value_name = "FILE")]
    pub from_file: Option<PathBuf>,
    /// Label
    #[arg(long)]
    pub title: Option<String>,
    /// Where the chain leads [default on create: scan-qr]
    #[arg(long, value_enum)]
    pub sub_type: Option<SubTypeArg>,
    /// The chain's own QR image URL (scan-qr)
    #[arg(long, value_name = "URL")]
    pub qr_url: Option<String>,
    /// Account ID (account)
    #[arg(long, value_name = "ID")]
    pub wx_id: Option<String>,
    /// Mini-program app id (mini-program)
    #[arg(long, value_name = "APPID")]
    pub mini_appid: Option<String>,
    /// Mini-program page path (mini-program)
    #[arg(long, value_name = "PATH")]
    pub mini_path: Option<String>,
    /// Shop app id (shop)
    #[arg(long, value_name = "APPID")]
    pub shop_appid: Option<String>,
    /// Shop page path (shop)
    #[arg(long, value_name = "PATH")]
    pub shop_path: Option<String>,
    /// Work-chat acquisition URL (workchat-url)
    #[arg(long, value_name = "URL")]
    pub qwhk_url: Option<String>,
    /// Avatar image URL
    #[arg(long, value_name = "URL")]
    pub avatar: Option<String>,
    /// A line guiding the visitor
    #[arg(long, value_name = "TEXT")]
    pub guide_text: Option<String>,
    /// Longer text on the page
    #[arg(long, value_name = "TEXT")]
    pub desc: Option<String>,
    /// Line under the heading (at most 20 characters; shown with --show-type small)
    #[arg(long, value_name = "TEXT")]
    pub sub_title: Option<String>,
    /// Jump straight to the destination instead of showing the page
    #[arg(long, overrides_with = "page")]
    pub direct_jump: bool,
    /// Show the page (undoes --direct-jump on edit)
    #[arg(long)]
    pub page: bool,
    /// Image layout
    #[arg(long, value_enum)]
    pub show_type: Option<ShowTypeArg>,
    /// Jump-page template id (see linkapi template list)
    #[arg(long, value_name = "ID")]
    pub template: Option<i64>,
    /// Show a hint on how to scan (0 or 1)
    #[arg(long, value_name = "0|1")]
    pub scan_tips: Option<i64>,
    /// How visits pick a channel
    #[arg(long, value_enum)]
    pub rotation: Option<RotationArg>,
    /// What channel limits cap
    #[arg(long, value_enum)]
    pub cap: Option<CapArg>,
    /// Add a channel with this QR image URL (repeatable; sort order as given). Use
    /// --from-file for limits, ratios and expiry
    #[arg(long = "channel", value_name = "URL")]
    pub channels: Vec<String>,
    /// Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never
    #[arg(long, value_name = "TIME")]
    pub expires: Option<String>,
    /// Group id (a group of chain type 2)
    #[arg(long, value_name = "ID")]
    pub group: Option<i64>,
}

/// `linkapi wx ...`
#[derive(Debug, Subcommand)]
pub enum WxCommand {
    /// Create a messaging-app chain
    #[command(after_help = "\
Examples:
  linkapi wx create --title \"Join the group\" --channel https://cdn.example.com/g1.png \\
      --channel https://cdn.example.com/g2.png --rotation round-robin
  linkapi wx create --sub-type mini-program --mini-appid wx0123456789abcdef \\
      --mini-path pages/index --direct-jump
  linkapi wx create --from-file chain.json --json=render_url")]
    Create {
        /// The chain's fields.
        #[command(flatten)]
        fields: Box<WxFields>,
        /// Custom code instead of a random one
        #[arg(long = "code", value_name = "CODE")]
        custom_code: Option<String>,
        /// Domain id [default: the server's default domain]
        #[arg(long, value_name = "ID")]
        domain: Option<i64>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// List your messaging-app chains, newest first
    List {
        /// Page to show
        #[arg(long, default_value_t = 1)]
        page: i64,
        /// Chains per page (at most 100)
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(i64).range(1..=100))]
        limit: i64,
        /// Every page
        #[arg(long, conflicts_with = "page")]
        all: bool,
        /// Only chains whose title or code contains this
        #[arg(long, short)]
        query: Option<String>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Show one chain and its channels
    Info {
        /// The chain.
        #[command(flatten)]
        chain: ChainRef,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Change a chain's fields and channels
    #[command(after_help = "\
--channel adds channels; to change or remove one, use --from-file with a channel_list whose
entries carry the channel's id (and is_delete: 1 to remove it).

Examples:
  linkapi wx edit Tq8mZk --sub-title \"Scan me\" --rotation weighted
  linkapi wx edit 7 --from-file channels.json")]
    Edit {
        /// The chain.
        #[command(flatten)]
        chain: ChainRef,
        /// The fields to change.
        #[command(flatten)]
        fields: Box<WxFields>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Delete messaging-app chains
    Delete {
        /// Chain ids or codes
        #[arg(required = true)]
        chains: Vec<String>,
        /// Take every CHAIN as a code
        #[arg(long)]
        code: bool,
        /// Do not ask for confirmation
        #[arg(long, short)]
        yes: bool,
    },
}

/// `linkapi card ...`
#[derive(Debug, Subcommand)]
pub enum CardCommand {
    /// Your card chains (at most 100, newest first)
    List {
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Create a chain in the card namespace (always the generic page: no --template)
    Create {
        /// The chain's fields.
        #[command(flatten)]
        fields: Box<WxFields>,
        /// Custom code instead of a random one
        #[arg(long = "code", value_name = "CODE")]
        custom_code: Option<String>,
        /// Domain id [default: the server's default domain]
        #[arg(long, value_name = "ID")]
        domain: Option<i64>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
}

/// Where a work-chat chain leads: an assembly-list entry or a URL.
#[derive(Debug, Clone, Default, Args)]
pub struct WorkchatFields {
    /// An entry of your assembly list (wxwork_type 1; see linkapi workchat assemblies)
    #[arg(long, value_name = "ID", conflicts_with = "url")]
    pub customer: Option<i64>,
    /// A work-chat URL (wxwork_type 2)
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Label
    #[arg(long)]
    pub title: Option<String>,
    /// Jump straight to the destination instead of showing the page
    #[arg(long, overrides_with = "page")]
    pub direct_jump: bool,
    /// Show the page (undoes --direct-jump on edit)
    #[arg(long)]
    pub page: bool,
    /// Jump-page template id
    #[arg(long, value_name = "ID")]
    pub template: Option<i64>,
    /// Group id (a group of chain type 3)
    #[arg(long, value_name = "ID")]
    pub group: Option<i64>,
    /// Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never
    #[arg(long, value_name = "TIME")]
    pub expires: Option<String>,
}

/// `linkapi workchat ...`
#[derive(Debug, Subcommand)]
pub enum WorkchatCommand {
    /// Create a work-chat chain
    #[command(after_help = "\
Examples:
  linkapi workchat create --customer 3 --title Sales
  linkapi workchat create --url https://work.example.com/u/42 --direct-jump")]
    Create {
        /// Destination and page.
        #[command(flatten)]
        fields: WorkchatFields,
        /// Custom code instead of a random one
        #[arg(long = "code", value_name = "CODE")]
        custom_code: Option<String>,
        /// Domain id [default: the server's default domain]
        #[arg(long, value_name = "ID")]
        domain: Option<i64>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Change a work-chat chain
    Edit {
        /// The chain's code
        chain: String,
        /// The channel whose URL changes [default: the chain's only one]
        #[arg(long, value_name = "ID")]
        channel: Option<i64>,
        /// What changes.
        #[command(flatten)]
        fields: WorkchatFields,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Show a work-chat chain
    Info {
        /// The chain's code
        chain: String,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// List your work-chat chains, newest first
    List {
        /// Page to show
        #[arg(long, default_value_t = 1)]
        page: i64,
        /// Chains per page (at most 100)
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(i64).range(1..=100))]
        limit: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Delete work-chat chains
    Delete {
        /// Chain ids or codes
        #[arg(required = true)]
        chains: Vec<String>,
        /// Take every CHAIN as a code
        #[arg(long)]
        code: bool,
        /// Do not ask for confirmation
        #[arg(long, short)]
        yes: bool,
    },
    /// Your assembly list: the acquisition links work-chat chains may lead to
    Assemblies {
        /// Page to show
        #[arg(long, default_value_t = 1)]
        page: i64,
        /// Entries per page (at most 100)
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(i64).range(1..=100))]
        limit: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Customer-ownership transfer results of a corp
    #[command(after_help = "\
Without --all one page is shown and the cursor of the next is printed on standard error.

Examples:
  linkapi workchat transfers --corp ww1 --handover alice --all
  linkapi workchat transfers --corp ww1 --cursor t100 --json")]
    Transfers {
        /// The corp id
        #[arg(long, value_name = "ID")]
        corp: String,
        /// Only transfers from this work-chat user
        #[arg(long, value_name = "USERID")]
        handover: Option<String>,
        /// Only transfers to this work-chat user
        #[arg(long, value_name = "USERID")]
        takeover: Option<String>,
        /// Start at this cursor (a next_cursor printed before)
        #[arg(long, conflicts_with = "all")]
        cursor: Option<String>,
        /// Follow the cursor to the end
        #[arg(long)]
        all: bool,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
}

/// `linkapi admin workchat ...`
#[derive(Debug, Subcommand)]
pub enum AdminWorkchatCommand {
    /// Add an acquisition link to a user's assembly list (or change the one with its link id)
    AddAssembly {
        /// The user whose list it is
        #[arg(long, value_name = "ID")]
        user: i64,
        /// The work-chat's id of the link
        #[arg(long, value_name = "ID")]
        link_id: String,
        /// Its name
        #[arg(long)]
        name: String,
        /// The acquisition URL
        #[arg(long, value_name = "URL")]
        url: String,
        /// Authorization state, free text
        #[arg(long, default_value = "")]
        auth_status: String,
        /// Mark it invalid: no chain may choose it
        #[arg(long)]
        invalid: bool,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// A user's assembly list
    Assemblies {
        /// The user
        #[arg(long, value_name = "ID")]
        user: i64,
        /// Page to show
        #[arg(long, default_value_t = 1)]
        page: i64,
        /// Entries per page (at most 100)
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(i64).range(1..=100))]
        limit: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Load transfer records from a file: a JSON array or JSON lines of
    /// {external_userid, name, status, takeover_time, errcode, reason}
    #[command(after_help = "\
Records are sent 1000 at a time; each batch is stored whole or not at all.

Example:
  linkapi admin workchat load-transfers --user 3 --corp ww1 --handover alice --takeover bob transfers.jsonl")]
    LoadTransfers {
        /// The user whose data it is
        #[arg(long, value_name = "ID")]
        user: i64,
        /// The corp id
        #[arg(long, value_name = "ID")]
        corp: String,
        /// The work-chat user handing customers over
        #[arg(long, value_name = "USERID")]
        handover: String,
        /// The work-chat user taking them over
        #[arg(long, value_name = "USERID")]
        takeover: String,
        /// The records, or - for standard input
        file: PathBuf,
    },
}
