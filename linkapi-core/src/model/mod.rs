//! Domain types: newtype ids, the integer codes of the contract as enums, and the records the
//! services work with. Wire shapes live in [`crate::wire`]; nothing here knows about JSON layout.

pub mod limits;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Seconds since the Unix epoch, UTC. The whole crate keeps time in this one unit.
pub type Timestamp = i64;

macro_rules! id_type {
    ($(#[$doc:meta] $name:ident),* $(,)?) => {$(
        #[$doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    )*};
}

id_type! {
    /// A user: the owner of keys, chains, groups and private domains.
    UserId,
    /// An API key's row id (not its secret).
    KeyId,
    /// A chain of any kind.
    ChainId,
    /// A group of chains.
    GroupId,
    /// A domain chains are served on.
    DomainId,
    /// An uploaded file of one user.
    UploadId,
    /// A jump-page template; 0 is the generic one.
    TemplateId,
    /// A channel (one QR code or URL) of a messaging-app or work-chat chain.
    ChannelId,
}

/// An enum of the contract's integer codes (section 4): `code()` gives the wire integer,
/// `from_code()` reads one and refuses every other value.
macro_rules! int_code {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $code:literal),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant),*
        }

        impl $name {
            /// Every value, in code order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The wire integer.
            pub fn code(self) -> i64 {
                match self {
                    $($name::$variant => $code),*
                }
            }

            /// The value of a wire integer; `None` for any other integer.
            pub fn from_code(code: i64) -> Option<Self> {
                match code {
                    $($code => Some($name::$variant),)*
                    _ => None,
                }
            }

            /// The accepted integers, for error messages: `1, 2, 3`.
            pub fn codes() -> String {
                Self::ALL.iter().map(|v| v.code().to_string()).collect::<Vec<_>>().join(", ")
            }
        }
    };
}

int_code! {
    /// `sub_type`: what a messaging-app chain leads to (contract section 4).
    SubType {
        /// 1: a QR code to scan (`scan_qr_url` or the channels).
        ScanQr = 1,
        /// 2: a messaging-app account ID (`wx_id`) to add.
        AccountId = 2,
        /// 3: a mini-program (`mini_appid` + `mini_path`).
        MiniProgram = 3,
        /// 4: a shop (`shop_appid` + `shop_path`).
        Shop = 4,
        /// 5: a work-chat acquisition URL (`qwhk_url`).
        WorkchatUrl = 5,
    }
}

int_code! {
    /// `show_type`: how the page shows its image.
    ShowType {
        /// 1: a small image (a QR code), with `sub_title` under the heading.
        Small = 1,
        /// 2: a long image across the page.
        Long = 2,
    }
}

int_code! {
    /// `qrcode_vc_type`: what a channel's `visit_limit` caps.
    VisitCap {
        /// 1: visits ever.
        Total = 1,
        /// 2: visits per day.
        Daily = 2,
    }
}

int_code! {
    /// `visit_type`: how a chain picks the channel a visit gets.
    Rotation {
        /// 1: the first usable channel in `sort` order, until its limit or `qrcode_time`.
        SortOrder = 1,
        /// 3: weighted random by `ratio`.
        Weighted = 3,
        /// 4: round robin in `sort` order.
        RoundRobin = 4,
        /// 5: uniform random.
        Uniform = 5,
    }
}

int_code! {
    /// `wxwork_type`: where a work-chat chain leads.
    WorkchatKind {
        /// 1: an acquisition link of the owner's assembly list (`customer_id`).
        Acquisition = 1,
        /// 2: a work-chat URL of the owner's choosing (`target_url`).
        CustomUrl = 2,
    }
}

/// What a scope grants access to. `write` never implies `read` (contract section 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Resource {
    /// Chains of every kind on the primary and compatibility surfaces.
    Chains,
    /// Groups of chains.
    Groups,
    /// Domain listings.
    Domains,
    /// Jump-page templates.
    Templates,
    /// Image uploads.
    Uploads,
    /// Chain statistics.
    Stats,
    /// Ad-conversion reports.
    Conversions,
    /// Work-chat assembly and transfer data.
    Workchat,
    /// The card namespace (`/card`).
    Card,
}

impl Resource {
    /// Every resource, in the order the contract lists them.
    pub const ALL: [Resource; 9] = [
        Resource::Chains,
        Resource::Groups,
        Resource::Domains,
        Resource::Templates,
        Resource::Uploads,
        Resource::Stats,
        Resource::Conversions,
        Resource::Workchat,
        Resource::Card,
    ];

    /// The name used in scope strings.
    pub fn as_str(self) -> &'static str {
        match self {
            Resource::Chains => "chains",
            Resource::Groups => "groups",
            Resource::Domains => "domains",
            Resource::Templates => "templates",
            Resource::Uploads => "uploads",
            Resource::Stats => "stats",
            Resource::Conversions => "conversions",
            Resource::Workchat => "workchat",
            Resource::Card => "card",
        }
    }
}

/// A pattern of every scope's name, for the API's schemas (a test holds it to [`Scope`]'s parser).
pub const SCOPE_PATTERN: &str = "^(\\*|admin|(chains|groups|domains|templates|uploads|stats|conversions|workchat|card):(read|write))$";

/// A permission carried by an API key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// `<resource>:read`
    Read(Resource),
    /// `<resource>:write`
    Write(Resource),
    /// `admin`: the `/admin` endpoints.
    Admin,
    /// `*`: everything.
    All,
}

impl Scope {
    /// Whether a key holding `held` may use an endpoint that requires `self`.
    pub fn is_granted_by(self, held: &[Scope]) -> bool {
        held.iter().any(|s| *s == Scope::All || *s == self)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scope::Read(r) => write!(f, "{}:read", r.as_str()),
            Scope::Write(r) => write!(f, "{}:write", r.as_str()),
            Scope::Admin => f.write_str("admin"),
            Scope::All => f.write_str("*"),
        }
    }
}

/// A scope string that names no scope of the contract.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown scope {0:?}")]
pub struct UnknownScope(pub String);

impl FromStr for Scope {
    type Err = UnknownScope;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "*" => return Ok(Scope::All),
            "admin" => return Ok(Scope::Admin),
            _ => {}
        }
        let unknown = || UnknownScope(s.to_owned());
        let (resource, access) = s.split_once(':').ok_or_else(unknown)?;
        let resource = Resource::ALL
            .into_iter()
            .find(|r| r.as_str() == resource)
            .ok_or_else(unknown)?;
        match access {
            "read" => Ok(Scope::Read(resource)),
            "write" => Ok(Scope::Write(resource)),
            _ => Err(unknown()),
        }
    }
}

/// `chain_type` (and `type` on output), contract section 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChainKind {
    /// 1: short link redirecting to `target_url`.
    Short,
    /// 2: messaging-app external link.
    External,
    /// 3: work-chat chain.
    WorkChat,
    /// 4: external link in the card namespace.
    Card,
}

impl ChainKind {
    /// The wire integer.
    pub fn code(self) -> i64 {
        match self {
            ChainKind::Short => 1,
            ChainKind::External => 2,
            ChainKind::WorkChat => 3,
            ChainKind::Card => 4,
        }
    }

    /// Reads a wire integer; 0 is taken as 1 (contract section 4).
    pub fn from_code(code: i64) -> Option<Self> {
        match code {
            0 | 1 => Some(ChainKind::Short),
            2 => Some(ChainKind::External),
            3 => Some(ChainKind::WorkChat),
            4 => Some(ChainKind::Card),
            _ => None,
        }
    }
}

/// A chain's status as clients see it (contract section 4). Only `Normal` and `Disabled` are
/// stored; `Expired` and `DomainNotEffective` are derived when the chain is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainStatus {
    /// 1: serving.
    Normal,
    /// 2: `valid_time` has passed.
    Expired,
    /// 3: switched off.
    Disabled,
    /// 4: its domain's status is 99.
    DomainNotEffective,
}

impl ChainStatus {
    /// The wire integer.
    pub fn code(self) -> i64 {
        match self {
            ChainStatus::Normal => 1,
            ChainStatus::Expired => 2,
            ChainStatus::Disabled => 3,
            ChainStatus::DomainNotEffective => 4,
        }
    }

    /// The human-readable label of listings.
    pub fn label(self) -> &'static str {
        match self {
            ChainStatus::Normal => "normal",
            ChainStatus::Expired => "expired",
            ChainStatus::Disabled => "disabled",
            ChainStatus::DomainNotEffective => "domain not effective",
        }
    }

    /// Reads a stored integer.
    pub fn from_code(code: i64) -> Option<Self> {
        match code {
            1 => Some(ChainStatus::Normal),
            2 => Some(ChainStatus::Expired),
            3 => Some(ChainStatus::Disabled),
            4 => Some(ChainStatus::DomainNotEffective),
            _ => None,
        }
    }
}

/// `domain_status`: 1 effective, 99 not effective.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DomainStatus {
    /// 1: chains on it are served.
    Effective,
    /// 99: chains on it answer 404 and new chains are refused.
    NotEffective,
}

impl DomainStatus {
    /// The wire integer.
    pub fn code(self) -> i64 {
        match self {
            DomainStatus::Effective => 1,
            DomainStatus::NotEffective => 99,
        }
    }

    /// Reads a wire integer.
    pub fn from_code(code: i64) -> Option<Self> {
        match code {
            1 => Some(DomainStatus::Effective),
            99 => Some(DomainStatus::NotEffective),
            _ => None,
        }
    }
}

/// The scheme a domain is served on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// `http`
    Http,
    /// `https`
    Https,
}

impl Scheme {
    /// The scheme's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }

    /// Reads a scheme name.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "http" => Some(Scheme::Http),
            "https" => Some(Scheme::Https),
            _ => None,
        }
    }
}

/// A user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// Row id.
    pub id: UserId,
    /// Display name, unique.
    pub name: String,
    /// Chains the user may create per UTC day; `None` takes the server's default.
    pub daily_quota: Option<i64>,
    /// When the user was created.
    pub created_at: Timestamp,
}

/// An API key as stored: never its secret, only the secret's hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKeyRecord {
    /// Row id.
    pub id: KeyId,
    /// The user the key acts as.
    pub user_id: UserId,
    /// A label chosen at creation.
    pub name: String,
    /// The first characters of the secret, so an operator can tell keys apart.
    pub prefix: String,
    /// What the key may do.
    pub scopes: Vec<Scope>,
    /// When the key was created.
    pub created_at: Timestamp,
    /// After this instant the key is refused; `None` never expires.
    pub expires_at: Option<Timestamp>,
    /// When the key was revoked, if it was.
    pub revoked_at: Option<Timestamp>,
}

/// A domain chains are served on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Domain {
    /// Row id.
    pub id: DomainId,
    /// Host, lower case, with a port when it is not the scheme's default.
    pub host: String,
    /// The scheme `render_url` uses.
    pub scheme: Scheme,
    /// Free-form label of what the domain is for.
    pub scene: String,
    /// Offered to every user when true; otherwise only to `user_id`.
    pub shared: bool,
    /// The owner of a private domain.
    pub user_id: Option<UserId>,
    /// Effective or not.
    pub status: DomainStatus,
    /// When the domain was registered.
    pub created_at: Timestamp,
}

impl Domain {
    /// `scheme://host/code`.
    pub fn render_url(&self, code: &str) -> String {
        format!("{}://{}/{}", self.scheme.as_str(), self.host, code)
    }

    /// Whether `user` may create chains on and list this domain.
    pub fn is_visible_to(&self, user: UserId) -> bool {
        self.shared || self.user_id == Some(user)
    }
}

/// A group of chains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// Row id.
    pub id: GroupId,
    /// Owner.
    pub user_id: UserId,
    /// Name, unique per user.
    pub name: String,
    /// The kind of chain the group holds.
    pub chain_type: ChainKind,
    /// Live chains in the group.
    pub chain_count: i64,
    /// When the group was created.
    pub created_at: Timestamp,
}

/// Where a jump-page template comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TemplateKind {
    /// Shipped with the server (wire 1); cannot be edited or retired.
    BuiltIn,
    /// Added by an administrator (wire 2).
    Custom,
}

impl TemplateKind {
    /// The wire integer.
    pub fn code(self) -> i64 {
        match self {
            TemplateKind::BuiltIn => 1,
            TemplateKind::Custom => 2,
        }
    }

    /// The kind of a wire integer.
    pub fn from_code(code: i64) -> Option<Self> {
        match code {
            1 => Some(TemplateKind::BuiltIn),
            2 => Some(TemplateKind::Custom),
            _ => None,
        }
    }
}

/// A jump-page template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// Row id; 0 is the generic template.
    pub id: TemplateId,
    /// Offered only to this user; `None` offers it to everyone.
    pub user_id: Option<UserId>,
    /// Display name.
    pub name: String,
    /// The built-in layout it uses when it has no body of its own.
    pub style: String,
    /// Built in or added.
    pub kind: TemplateKind,
    /// Thumbnail image URL, may be empty.
    pub thumb: String,
    /// Page source (a minijinja template) of a custom template; empty uses `style`.
    pub body: String,
    /// When it was added.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
    /// When it was retired: no longer offered, still rendered for chains that use it.
    pub retired_at: Option<Timestamp>,
}

/// An uploaded image as its owner sees it. Several uploads (of several users, or deleted and
/// uploaded again) may name the same object: objects are named by their content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    /// Row id.
    pub id: UploadId,
    /// Owner.
    pub user_id: UserId,
    /// The stored object: the SHA-256 of the bytes, hex, and the type's extension.
    pub object_key: String,
    /// Media type, decided by the bytes.
    pub content_type: String,
    /// Length in bytes.
    pub size_bytes: i64,
    /// The name the client gave, for display only (never a path).
    pub file_name: String,
    /// When it was uploaded.
    pub created_at: Timestamp,
}

/// What a messaging-app or work-chat chain's page shows and where it leads: the fields short
/// chains do not have. Texts are empty when not set; the service checked that the fields the
/// destination needs are there and no others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JumpSettings {
    /// Messaging-app account ID (sub_type 2).
    pub wx_id: String,
    /// The chain's own QR image (sub_type 1), shown when no channel is usable.
    pub scan_qr_url: String,
    /// Avatar image URL.
    pub avatar: String,
    /// A line guiding the visitor.
    pub guide_text: String,
    /// Longer text (`desc`, `promo_desc`).
    pub desc: String,
    /// Line under the heading, at most 20 characters, shown with show_type 1.
    pub sub_title: String,
    /// Work-chat acquisition URL (sub_type 5).
    pub qwhk_url: String,
    /// Mini-program app id and path (sub_type 3).
    pub mini_appid: String,
    /// Path inside the mini-program.
    pub mini_path: String,
    /// Shop app id and path (sub_type 4).
    pub shop_appid: String,
    /// Path inside the shop.
    pub shop_path: String,
    /// 302 straight to the destination instead of the page.
    pub direct_jump: bool,
    /// Small or long image.
    pub show_type: ShowType,
    /// The page's template; 0 the generic one.
    pub template_id: TemplateId,
    /// Show a hint on how to scan.
    pub scan_tips: bool,
    /// What channel limits cap.
    pub visit_cap: VisitCap,
    /// How a visit's channel is picked.
    pub rotation: Rotation,
    /// Where a work-chat chain leads.
    pub workchat_kind: Option<WorkchatKind>,
    /// The assembly-list entry of an acquisition work-chat chain.
    pub customer_id: Option<i64>,
}

impl Default for JumpSettings {
    fn default() -> Self {
        JumpSettings {
            wx_id: String::new(),
            scan_qr_url: String::new(),
            avatar: String::new(),
            guide_text: String::new(),
            desc: String::new(),
            sub_title: String::new(),
            qwhk_url: String::new(),
            mini_appid: String::new(),
            mini_path: String::new(),
            shop_appid: String::new(),
            shop_path: String::new(),
            direct_jump: false,
            show_type: ShowType::Small,
            template_id: TemplateId(0),
            scan_tips: false,
            visit_cap: VisitCap::Total,
            rotation: Rotation::SortOrder,
            workchat_kind: None,
            customer_id: None,
        }
    }
}

/// One QR code (or URL) of a chain's channel list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    /// Row id.
    pub id: ChannelId,
    /// The chain it belongs to.
    pub chain_id: ChainId,
    /// Position in sort order (lowest first; ties by id).
    pub sort: i64,
    /// Label.
    pub name: String,
    /// The QR image (or, for work-chat chains, the destination URL).
    pub url: String,
    /// Where the QR code leads, if known: the button and direct-jump target.
    pub url2: String,
    /// Unix seconds after which the channel is skipped; 0 never.
    pub expires_at: Timestamp,
    /// Weight under weighted rotation.
    pub ratio: i64,
    /// Visits it may get (total or per day, by the chain's `qrcode_vc_type`); 0 unlimited.
    pub visit_limit: i64,
    /// Offered to visitors; a disabled channel is skipped.
    pub enabled: bool,
    /// Visits it got, ever.
    pub visit_count: i64,
}

impl Channel {
    /// Whether a visit at `now` may get this channel, limits aside.
    pub fn is_usable_at(&self, now: Timestamp) -> bool {
        self.enabled && !is_expired(self.expires_at, now)
    }
}

/// `use_status` of an assembly-list entry.
pub mod use_status {
    /// Not used by any live work-chat chain.
    pub const NOT_IN_USE: i64 = 0;
    /// Used by a live work-chat chain.
    pub const IN_USE: i64 = 1;
    /// Marked invalid: no chain may choose it.
    pub const INVALID: i64 = 2;
}

/// A work-chat customer-acquisition link of one user's assembly list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembly {
    /// Row id (`customer_id` of work-chat chains).
    pub id: i64,
    /// Owner.
    pub user_id: UserId,
    /// The work-chat's id of the link, unique per user.
    pub link_id: String,
    /// Its name.
    pub link_name: String,
    /// The acquisition URL visitors are sent to.
    pub url: String,
    /// Authorization state as the work-chat reports it, free text.
    pub auth_status: String,
    /// 0 not in use, 1 in use (derived from live chains), 2 invalid.
    pub use_status: i64,
    /// When it was added.
    pub created_at: Timestamp,
}

/// One customer's ownership transfer between two work-chat users of a corp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transfer {
    /// Row id; the paging cursor follows it.
    pub id: i64,
    /// The user whose data it is.
    pub user_id: UserId,
    /// The corp.
    pub corp_id: String,
    /// The user handing the customer over.
    pub handover_userid: String,
    /// The user taking the customer over.
    pub takeover_userid: String,
    /// The customer.
    pub external_userid: String,
    /// The customer's name.
    pub customer_name: String,
    /// 1 done, 2 waiting, 3 refused, 4 taker at its limit, 5 no transfer record.
    pub status: i64,
    /// When the takeover happened (Unix seconds), 0 if it has not.
    pub takeover_time: Timestamp,
    /// The work-chat's error code, 0 none.
    pub errcode: i64,
    /// Why it failed, if it did.
    pub reason: String,
}

/// A chain of any kind with the fields every kind shares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chain {
    /// Row id.
    pub id: ChainId,
    /// Owner.
    pub user_id: UserId,
    /// Kind of chain.
    pub kind: ChainKind,
    /// Destination kind of messaging-app chains.
    pub sub_type: Option<i64>,
    /// The domain it is served on.
    pub domain: Domain,
    /// The unique suffix of its public URL on its domain.
    pub code: String,
    /// Optional label.
    pub title: String,
    /// Destination of a short chain.
    pub target_url: String,
    /// Groups it belongs to, in the order given.
    pub group_ids: Vec<GroupId>,
    /// Unix seconds after which it answers 410; 0 is permanent.
    pub valid_time: Timestamp,
    /// Stored status: `Normal` or `Disabled`.
    pub stored_status: ChainStatus,
    /// When it was deleted, if it was.
    pub deleted_at: Option<Timestamp>,
    /// Creation time.
    pub created_at: Timestamp,
    /// Last change.
    pub updated_at: Timestamp,
    /// Page and destination of messaging-app and work-chat chains; `None` for short chains.
    pub jump: Option<Box<JumpSettings>>,
}

impl Chain {
    /// The status clients see at `now`: domain state first, then expiry, then what is stored.
    pub fn status_at(&self, now: Timestamp) -> ChainStatus {
        if self.domain.status == DomainStatus::NotEffective {
            ChainStatus::DomainNotEffective
        } else if is_expired(self.valid_time, now) {
            ChainStatus::Expired
        } else {
            self.stored_status
        }
    }

    /// `scheme://domain/code`.
    pub fn render_url(&self) -> String {
        self.domain.render_url(&self.code)
    }
}

/// Whether a chain with `valid_time` has expired at `now` (0 is permanent).
pub fn is_expired(valid_time: Timestamp, now: Timestamp) -> bool {
    valid_time != 0 && valid_time <= now
}

/// Page views of one chain.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PageViews {
    /// Visits since the start of the current UTC day.
    pub today: i64,
    /// Visits ever.
    pub history: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_round_trip_and_reject_unknown_names() {
        for s in ["chains:read", "card:write", "admin", "*", "workchat:read"] {
            let scope: Scope = s.parse().expect("valid scope");
            assert_eq!(scope.to_string(), s);
        }
        for s in ["chains", "chains:delete", "links:read", "", "admin:read"] {
            assert!(s.parse::<Scope>().is_err(), "{s} should be refused");
        }
    }

    #[test]
    fn the_scope_pattern_names_every_resource() {
        for resource in Resource::ALL {
            assert!(
                SCOPE_PATTERN.contains(&format!("|{}", resource.as_str()))
                    || SCOPE_PATTERN.contains(&format!("({}", resource.as_str())),
                "{} is missing from SCOPE_PATTERN",
                resource.as_str()
            );
        }
    }

    #[test]
    fn write_does_not_imply_read_but_star_implies_everything() {
        let held = [Scope::Write(Resource::Chains)];
        assert!(Scope::Write(Resource::Chains).is_granted_by(&held));
        assert!(!Scope::Read(Resource::Chains).is_granted_by(&held));
        assert!(Scope::Admin.is_granted_by(&[Scope::All]));
        assert!(!Scope::Admin.is_granted_by(&[Scope::Read(Resource::Chains)]));
    }

    #[test]
    fn chain_type_zero_is_a_short_chain() {
        assert_eq!(ChainKind::from_code(0), Some(ChainKind::Short));
        assert_eq!(ChainKind::from_code(5), None);
    }
}
