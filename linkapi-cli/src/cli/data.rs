//! `linkapi import` (links from another shortener) and `linkapi stats` (their visits, and the
//! requests that reached no chain).

use std::path::PathBuf;

use clap::Args;
use linkapi_core::model::Dimension;

use super::{DomainArg, JsonArgs};

/// `linkapi import`.
#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    /// The shortener the files come from
    #[arg(long, value_enum)]
    pub from: crate::peers::Peer,
    /// Files to read, or - for standard input
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Put every link on this domain of yours (host name) instead of the peer's
    #[arg(long, value_name = "HOST", conflicts_with = "map_domain")]
    pub domain: Option<String>,
    /// Put the links the peer had on FROM on your domain TO instead (repeatable)
    #[arg(long, value_name = "FROM=TO", value_parser = parse_domain_map)]
    pub map_domain: Vec<(String, String)>,
    /// Check every link and report what an import would do, importing nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Print every link's result as a JSON object
    #[arg(long)]
    pub json: bool,
}

/// `FROM=TO` of `--map-domain`: two host names, compared without regard to case.
fn parse_domain_map(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((from, to)) if !from.trim().is_empty() && !to.trim().is_empty() => Ok((
            from.trim().to_ascii_lowercase(),
            to.trim().to_ascii_lowercase(),
        )),
        _ => Err(format!("{text:?} is not FROM=TO (two host names)")),
    }
}

/// `linkapi stats`.
#[derive(Debug, Clone, Args)]
pub struct StatsArgs {
    /// Chain id, or its code (all digits is taken as an id; use --code for digit codes);
    /// without one, your visits across all your chains
    pub chain: Option<String>,
    /// Take CHAIN as a code even when it is all digits
    #[arg(long, requires = "chain")]
    pub code: bool,
    /// Requests of every domain that reached no chain (the base URL, unknown codes, other
    /// paths), per domain and kind; needs an admin key
    #[arg(long, conflicts_with_all = ["chain", "by"])]
    pub orphans: bool,
    /// Domain id or host name, when you have the code on several domains
    #[arg(long, value_name = "DOMAIN", requires = "chain")]
    pub domain: Option<DomainArg>,
    /// Days counted, today included (1 to 365)
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(i64).range(1..=365))]
    pub days: i64,
    /// Break the chain's visits down by this
    #[arg(long, value_name = "DIMENSION", value_parser = dimensions(), requires = "chain")]
    pub by: Option<Dimension>,
    /// Values (with --by) or chains (without a CHAIN) to list, most visits first (1 to 100)
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(i64).range(1..=100))]
    pub limit: i64,
    /// Output as JSON.
    #[command(flatten)]
    pub json: JsonArgs,
}

/// The dimensions by name, listed in help and completions.
fn dimensions() -> impl clap::builder::TypedValueParser<Value = Dimension> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(Dimension::ALL.map(Dimension::name))
        .try_map(|name| Dimension::from_name(&name).ok_or("not a dimension"))
}
