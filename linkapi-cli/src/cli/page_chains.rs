//! `linkapi wx ...`, `linkapi card ...` and `linkapi workchat ...`: chains with a page.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::chain::QrArgs;
use super::{ChainRef, JsonArgs};

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
        /// Domain id or host name [default: the server's default domain]
        #[arg(long, value_name = "DOMAIN")]
        domain: Option<super::DomainArg>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// List your messaging-app chains, newest first
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
    /// Show a chain's QR code in the terminal, or write it as PNG or SVG
    #[command(after_help = "\
As `linkapi chain qr`: on a terminal the code is drawn with block characters, followed by the
link; with --output, or when stdout is not a terminal, the image itself is written.

Examples:
  linkapi wx qr Tq8mZk
  linkapi wx qr 7 --output poster.png --size 1024")]
    Qr {
        /// The chain.
        #[command(flatten)]
        chain: ChainRef,
        /// The image.
        #[command(flatten)]
        image: QrArgs,
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
        /// Domain id or host name [default: the server's default domain]
        #[arg(long, value_name = "DOMAIN")]
        domain: Option<super::DomainArg>,
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
        /// Domain id or host name [default: the server's default domain]
        #[arg(long, value_name = "DOMAIN")]
        domain: Option<super::DomainArg>,
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
        /// Chains per page (1 to 100) [default: 20]
        #[arg(long, value_parser = clap::value_parser!(i64).range(1..=100))]
        limit: Option<i64>,
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
