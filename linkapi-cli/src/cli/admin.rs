//! `linkapi admin ...`

use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};

use super::JsonArgs;

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
    /// Show a user and what they use: chains, chains created today, uploads, keys
    Show {
        /// The user's id
        id: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Rename a user or change their daily quota
    #[command(after_help = "\
Examples:
  linkapi admin user edit 2 --name acme-marketing
  linkapi admin user edit 2 --daily-quota 50000
  linkapi admin user edit 2 --daily-quota default")]
    Edit {
        /// The user's id
        id: i64,
        /// A new unique name
        #[arg(long)]
        name: Option<String>,
        /// Chains the user may create per day, or "default" for the server's
        #[arg(long, value_name = "N|default", value_parser = parse_quota)]
        daily_quota: Option<Quota>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Suspend a user: every key of theirs is refused at once, on every instance
    #[command(after_help = "\
Their short links go on redirecting unless --redirects is given, which makes them answer 404
until the user is resumed. Nothing is deleted; `linkapi admin user resume` undoes it.")]
    Suspend {
        /// The user's id
        id: i64,
        /// Stop their links' redirects too
        #[arg(long)]
        redirects: bool,
        /// Do not ask for confirmation
        #[arg(long, short = 'y')]
        yes: bool,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Resume a suspended user: their keys and redirects work again
    Resume {
        /// The user's id
        id: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
}

/// A daily quota given on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quota {
    /// This many chains a day.
    Chains(i64),
    /// The server's default.
    ServerDefault,
}

fn parse_quota(value: &str) -> Result<Quota, String> {
    if value.eq_ignore_ascii_case("default") {
        return Ok(Quota::ServerDefault);
    }
    match value.parse::<i64>() {
        Ok(n) if n >= 0 => Ok(Quota::Chains(n)),
        _ => Err(format!(
            "{value:?} is neither a number of chains (0 or more) nor \"default\""
        )),
    }
}

/// `linkapi admin key ...`
#[derive(Debug, Subcommand)]
pub enum AdminKeyCommand {
    /// Create a key; its secret is printed this once
    #[command(after_help = "\
Scopes: chains:read chains:write groups:read groups:write domains:read templates:read
templates:write uploads:write stats:read conversions:write workchat:read card:read card:write
webhooks:read webhooks:write admin * (write does not imply read). `user` stands for every
<resource>:read and :write, everything but admin; `*` is everything, admin included.

Examples:
  linkapi admin key create --user 2 --scope chains:read --scope chains:write --name bot
  linkapi admin key create --user 2 --scope user --expires \"2027-12-31 00:00:00\" --json=api_key")]
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
