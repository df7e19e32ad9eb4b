//! Chains: their kinds and statuses, the page settings and channels of the kinds that show a
//! page, groups, and page views.

use super::{
    ChainId, ChannelId, Domain, DomainStatus, GroupId, PageTexts, Rotation, ShowType, TemplateId,
    Timestamp, UserId, VisitCap, WorkchatKind,
};

/// `chain_type` (and `type` on output), contract section 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChainKind {
    /// 1: short link redirecting to `target_url`.
    Short,
    /// 2: messaging-app external link.
    Messaging,
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
            ChainKind::Messaging => 2,
            ChainKind::WorkChat => 3,
            ChainKind::Card => 4,
        }
    }

    /// Reads a wire integer; 0 is taken as 1 (contract section 4).
    pub fn from_code(code: i64) -> Option<Self> {
        match code {
            0 | 1 => Some(ChainKind::Short),
            2 => Some(ChainKind::Messaging),
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

/// What a messaging-app or work-chat chain's page shows and where it leads: the fields short
/// chains do not have. Texts are empty when not set; the service checked that the fields the
/// destination needs are there and no others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JumpSettings {
    /// What the page shows and the identifiers of where it leads.
    pub texts: PageTexts,
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
            texts: PageTexts::default(),
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

/// A chain as read: the record, its status now, and its page views.
#[derive(Debug, Clone)]
pub struct ChainView {
    /// The chain.
    pub chain: Chain,
    /// Status at the time of reading.
    pub status: ChainStatus,
    /// Visits.
    pub views: PageViews,
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
    /// When it was archived, if it is: left out of listings unless asked for, still
    /// redirecting.
    pub archived_at: Option<Timestamp>,
    /// Creation time.
    pub created_at: Timestamp,
    /// Last change.
    pub updated_at: Timestamp,
    /// Page and destination of messaging-app and work-chat chains; `None` for short chains.
    pub jump: Option<Box<JumpSettings>>,
    /// A short chain's redirect rules, in order.
    pub rules: Vec<super::RedirectRule>,
    /// Visits it had on another shortener before it was imported: history shown apart from
    /// the visits counted here.
    pub imported_visits: i64,
    /// A short chain's options (redirect status, start, visit limit, preview).
    pub options: super::LinkOptions,
    /// Visits taken against its `max_visits`.
    pub visits_taken: i64,
}

impl Chain {
    /// The status clients see at `now`: domain state first, then expiry (a short chain
    /// before its `valid_since` or past its `max_visits` answers as an expired one, and shows
    /// so), then what is stored.
    pub fn status_at(&self, now: Timestamp) -> ChainStatus {
        let limited = self.options.max_visits != 0 && self.visits_taken >= self.options.max_visits;
        if self.domain.status == DomainStatus::NotEffective {
            ChainStatus::DomainNotEffective
        } else if is_expired(self.valid_time, now) || self.options.not_yet(now) || limited {
            ChainStatus::Expired
        } else {
            self.stored_status
        }
    }

    /// Of its `max_visits`, the visits it still serves; `None` when unlimited.
    pub fn visits_left(&self) -> Option<i64> {
        let max = self.options.max_visits;
        (max != 0).then(|| (max - self.visits_taken).max(0))
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
