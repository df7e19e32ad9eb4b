//! `linkapi chain ...`

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use linkapi_core::wire::primary::RedirectRule;

use super::{ChainRef, JsonArgs};

/// Image formats of `linkapi chain qr` and `linkapi wx qr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum QrImageFormat {
    /// PNG
    Png,
    /// SVG
    Svg,
}

/// Where a QR code goes and what it is: `linkapi chain qr` and `linkapi wx qr`.
#[derive(Debug, Args)]
pub struct QrArgs {
    /// Write the image to this file
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Image format [default: from the --output extension, else png]
    #[arg(long, value_enum)]
    pub format: Option<QrImageFormat>,
    /// Side of the image in pixels (64 to 2048)
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(64..=2048))]
    pub size: u32,
}

/// `linkapi chain ...`
#[derive(Debug, Subcommand)]
pub enum ChainCommand {
    /// Create a short link
    #[command(after_help = "\
Examples:
  linkapi chain create https://example.com/spring --title \"Spring sale\"
  linkapi chain create https://example.com --code spring-27 --expires \"2027-06-01 00:00:00\"
  linkapi chain create https://example.com --json=render_url
  linkapi chain create https://example.com --idempotency-key nightly-42
  linkapi chain create https://example.com/old --redirect-status 301
  linkapi chain create https://example.com/launch --valid-since \"2027-03-01 09:00:00\" --max-visits 500
  linkapi chain create https://example.com/spring --preview-title \"Spring sale\" \\
      --preview-image https://example.com/spring.png

  linkapi chain create https://example.com/app \\
      --rule 'device=ios => https://apps.apple.com/app/id1' \\
      --rule 'device=android => https://play.google.com/store/apps/details?id=app'

Redirect rules send visitors elsewhere by device (ios, android, mobile, tablet, desktop),
country (ISO 3166-1, from the server's GeoIP database), language (of Accept-Language) or the
link's query (query.NAME=VALUE). A rule is CONDITION[,CONDITION...] => URL; visitors meeting
every condition of the first matching rule go to its URL, the rest to TARGET_URL.
--rules-file reads them as JSON instead: [{\"device\": \"ios\", \"target_url\": \"https://...\"}].
`linkapi chain info CHAIN --json=rules` shows a chain's rules.

The request carries an Idempotency-Key (a new random one unless --idempotency-key gives it)
and is sent again, under the same key, if the connection fails on the way: the chain is
created once. Run the command again with the same --idempotency-key within 24 hours and it
prints the chain the first run created instead of creating another.")]
    Create {
        /// Destination (http or https)
        target_url: String,
        /// Label
        #[arg(long)]
        title: Option<String>,
        /// Custom code instead of a random one
        #[arg(long = "code", value_name = "CODE")]
        custom_code: Option<String>,
        /// Domain id or host name [default: the server's default domain]
        #[arg(long, value_name = "DOMAIN")]
        domain: Option<super::DomainArg>,
        /// Group id
        #[arg(long, value_name = "ID")]
        group: Option<i64>,
        /// Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds [default: never]
        #[arg(long, value_name = "TIME")]
        expires: Option<String>,
        /// Redirect rules.
        #[command(flatten)]
        rules: RuleArgs,
        /// Redirect status, start and visit limit.
        #[command(flatten)]
        options: LinkOptionArgs,
        /// The request's Idempotency-Key (1 to 255 printable ASCII characters) [default: a new
        /// random one]
        #[arg(long, value_name = "KEY")]
        idempotency_key: Option<String>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Create many chains from CSV or JSON lines, one chain per line
    #[command(after_help = "\
CSV needs a header row naming its columns: target_url (required), title, code, domain_id,
group_id, valid_time. JSON lines hold one object per line with the fields of POST /chains
(target_url, chain_title, code, domain_id, group_id, valid_time). Blank lines are skipped.

Lines are sent 2,000 to a request (POST /chains/bulk). Each line's result goes to standard
output (line number, ok or error, code and URL or the reason); a summary goes to standard
error. The exit status is 1 when any line failed.

Each request carries an Idempotency-Key made from its lines (or from --idempotency-key and
the batch's number) and is sent again under it if the connection fails on the way. An import
that was interrupted (killed, timed out, disconnected) can be run again as it was within 24
hours: batches the server already took are answered with their first results and create
nothing; the rest are created. To import the same lines again on purpose, give a new
--idempotency-key.

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
        /// Prefix of the batches' Idempotency-Keys, which end in /N for the Nth batch
        /// [default: a digest of each batch's lines]
        #[arg(long, value_name = "KEY")]
        idempotency_key: Option<String>,
    },
    /// Write all your short links, with what a re-import needs, as JSON lines or CSV
    #[command(after_help = "\
Each line is one short link: code, domain, target_url, chain_title, status, valid_time,
created_at, archived_at, groups, rules, pv_history (visits counted so far), redirect_status (0:
the deployment's), valid_since, max_visits and visits_left (empty when unlimited). CSV has a header
row, and its groups and rules cells hold JSON. The server streams the export as it reads it, so
an export of any size takes the memory of one page.

With --output, the export is written to FILE.partial and renamed to FILE once it is whole; an
export cut short leaves no FILE and exits 1.

Examples:
  linkapi chain export --output links.jsonl
  linkapi chain export --output links.csv
  linkapi chain export --format csv | gzip > links.csv.gz")]
    Export {
        /// File to write [default: standard output]
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Format [default: from the --output extension, else jsonl]
        #[arg(long, value_enum)]
        format: Option<ImportFormat>,
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
        /// Chains per page (1 to 100) [default: 20; with --all, 100]
        #[arg(long, value_parser = clap::value_parser!(i64).range(1..=100))]
        limit: Option<i64>,
        /// Every page
        #[arg(long, conflicts_with = "page")]
        all: bool,
        /// Only chains in this group
        #[arg(long, value_name = "ID")]
        group: Option<i64>,
        /// Only chains whose title or code contains this
        #[arg(long, short)]
        query: Option<String>,
        /// Only archived chains (archived chains are otherwise left out)
        #[arg(long)]
        archived: bool,
        /// Archived chains too
        #[arg(long, conflicts_with = "archived")]
        include_archived: bool,
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
        /// The image.
        #[command(flatten)]
        image: QrArgs,
    },
    /// Change a chain's title, destination, expiry, rules, redirect status, start, visit limit or preview
    #[command(after_help = "\
Examples:
  linkapi chain edit 12 --target-url https://example.com/summer
  linkapi chain edit spring-27 --expires 0
  linkapi chain edit spring-27 --rule 'country=de,language=de => https://example.com/de'
  linkapi chain edit spring-27 --clear-rules
  linkapi chain edit spring-27 --max-visits 1000 --redirect-status 0

--rule and --rules-file replace all the chain's rules (see `linkapi chain create --help`).")]
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
        /// New redirect rules, replacing the chain's.
        #[command(flatten)]
        rules: RuleArgs,
        /// Remove all the chain's redirect rules
        #[arg(long, conflicts_with_all = ["rule", "rules_file"])]
        clear_rules: bool,
        /// New redirect status, start or visit limit (0 unsets one).
        #[command(flatten)]
        options: LinkOptionArgs,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Archive a chain: it still redirects, and `chain list` leaves it out
    #[command(after_help = "\
Examples:
  linkapi chain archive spring-27
  linkapi chain list --archived
  linkapi chain unarchive spring-27")]
    Archive {
        /// The chain.
        #[command(flatten)]
        chain: ChainRef,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Bring an archived chain back to `chain list`
    Unarchive {
        /// The chain.
        #[command(flatten)]
        chain: ChainRef,
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
        /// Domain id or host name, when you have the codes on several domains
        #[arg(long, value_name = "DOMAIN")]
        domain: Option<super::DomainArg>,
        /// Do not ask for confirmation
        #[arg(long, short)]
        yes: bool,
    },
}

/// Formats `chain import` reads and `chain export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ImportFormat {
    /// Comma-separated values with a header row
    Csv,
    /// One JSON object per line
    Jsonl,
}

/// `--redirect-status`, `--valid-since`, `--max-visits` and the `--preview-...` options.
#[derive(Debug, Clone, Default, Args)]
pub struct LinkOptionArgs {
    /// The status its redirects answer with: 301, 302, 307 or 308 (0: the server's default)
    #[arg(long, value_name = "CODE")]
    pub redirect_status: Option<i64>,
    /// Start: before it, the link answers as an expired one ("YYYY-MM-DD HH:MM:SS" UTC,
    /// RFC 3339, or Unix seconds; 0 none)
    #[arg(long, value_name = "TIME")]
    pub valid_since: Option<String>,
    /// People's visits it serves in all, exactly; past them it answers as an expired link
    /// (bots take none; 0 unlimited)
    #[arg(long, value_name = "N")]
    pub max_visits: Option<i64>,
    /// The title of the card link previews (chat apps, social sites) show; everyone else is
    /// redirected ("" removes it)
    #[arg(long, value_name = "TEXT")]
    pub preview_title: Option<String>,
    /// The preview card's text ("" removes it)
    #[arg(long, value_name = "TEXT")]
    pub preview_description: Option<String>,
    /// The preview card's image, an http(s) URL ("" removes it)
    #[arg(long, value_name = "URL")]
    pub preview_image: Option<String>,
}

/// `--rule` and `--rules-file`.
#[derive(Debug, Clone, Default, Args)]
pub struct RuleArgs {
    /// A redirect rule, CONDITION[,CONDITION...] => URL, where a condition is device=KIND,
    /// country=CC, language=LL or query.NAME=VALUE; repeat for more, first match wins
    #[arg(long, value_name = "RULE", value_parser = parse_rule, conflicts_with = "rules_file")]
    pub rule: Vec<RedirectRule>,
    /// Redirect rules as a JSON array of {device, country, language, query, target_url}
    /// (- reads standard input)
    #[arg(long, value_name = "FILE")]
    pub rules_file: Option<PathBuf>,
}

/// Reads `CONDITION[,CONDITION...] => URL`. Values are checked by the server, which names
/// what it refuses; this only takes the text apart.
fn parse_rule(text: &str) -> Result<RedirectRule, String> {
    let (conditions, target) = text
        .split_once("=>")
        .ok_or("a rule is CONDITION[,CONDITION...] => URL, e.g. 'device=ios => https://...'")?;
    let mut rule = RedirectRule {
        target_url: target.trim().to_owned(),
        ..RedirectRule::default()
    };
    if rule.target_url.is_empty() {
        return Err("the rule has no URL after =>".to_owned());
    }
    for condition in conditions.split(',').map(str::trim) {
        let (name, value) = condition
            .split_once('=')
            .ok_or_else(|| format!("condition {condition:?} is not NAME=VALUE"))?;
        let (name, value) = (name.trim(), value.trim().to_owned());
        let slot = match name {
            "device" => &mut rule.device,
            "country" => &mut rule.country,
            "language" => &mut rule.language,
            _ => match name.strip_prefix("query.") {
                Some(param) if !param.is_empty() => {
                    rule.query
                        .get_or_insert_default()
                        .insert(param.to_owned(), value);
                    continue;
                }
                _ => {
                    return Err(format!(
                        "unknown condition {name:?}: use device, country, language or query.NAME"
                    ));
                }
            },
        };
        if slot.replace(value).is_some() {
            return Err(format!("condition {name:?} is given twice"));
        }
    }
    Ok(rule)
}

/// A rule as `--rule` takes it: `CONDITION[,CONDITION...] => URL` (the inverse of
/// `parse_rule`).
pub fn rule_text(rule: &RedirectRule) -> String {
    let mut conditions: Vec<String> = [
        ("device", &rule.device),
        ("country", &rule.country),
        ("language", &rule.language),
    ]
    .into_iter()
    .filter_map(|(name, value)| value.as_ref().map(|v| format!("{name}={v}")))
    .collect();
    for (name, value) in rule.query.iter().flatten() {
        conditions.push(format!("query.{name}={value}"));
    }
    format!("{} => {}", conditions.join(","), rule.target_url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_reads_back_as_it_is_written() {
        for text in [
            "device=ios => https://apps.example/1",
            "country=CN,language=zh,query.ref=mail => https://example.com/zh",
        ] {
            assert_eq!(rule_text(&parse_rule(text).expect("a rule")), text);
        }
    }

    #[test]
    fn a_rule_is_conditions_then_a_url() {
        let rule = parse_rule("device=ios, query.ref=tw => https://e.com/a?b=c").expect("a rule");
        assert_eq!(rule.device.as_deref(), Some("ios"));
        let query = rule.query.unwrap_or_default();
        assert_eq!(query.get("ref").map(String::as_str), Some("tw"));
        assert_eq!(rule.target_url, "https://e.com/a?b=c");
        assert!(parse_rule("device=ios").is_err());
        assert!(parse_rule("device=ios =>  ").is_err());
        assert!(parse_rule("os=ios => https://e.com").is_err());
        assert!(parse_rule("country=de,country=at => https://e.com").is_err());
        assert!(parse_rule("query.=x => https://e.com").is_err());
    }
}
