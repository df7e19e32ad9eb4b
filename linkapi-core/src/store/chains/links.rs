//! What the redirect path reads of a chain: its target, rules and options, and the page of a
//! chain that shows one.

use std::sync::{Arc, LazyLock};

use super::jump::{JUMP_COLUMN_COUNT, JUMP_COLUMNS, jump_row};
use super::{chain_kind, chain_status, options_from_text, rules_from_text};
use crate::model::{
    ChainId, ChainKind, ChainStatus, Channel, JumpSettings, LinkOptions, RedirectRule, Timestamp,
    UserId,
};
use crate::store::{StoreResult, StoredRow};

/// What the redirect path needs of a chain, looked up by domain and code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkTarget {
    /// The chain.
    pub chain_id: ChainId,
    /// Kind of chain.
    pub kind: ChainKind,
    /// Destination.
    pub target_url: String,
    /// Expiry; 0 permanent.
    pub valid_time: Timestamp,
    /// Stored status.
    pub status: ChainStatus,
    /// Deleted chains keep their code (codes are never reused) and answer 404.
    pub deleted: bool,
    /// Its owner, whose suspension can stop its redirects.
    pub user_id: UserId,
    /// What a messaging-app or work-chat chain's visitor gets; `None` for short chains.
    pub page: Option<Arc<PageTarget>>,
    /// A short chain's redirect rules; `None` when it has none.
    pub rules: Option<Arc<[RedirectRule]>>,
    /// A short chain's options; `None` when it has none.
    pub options: Option<Arc<LinkOptions>>,
}

/// What the redirect path needs of a messaging-app or work-chat chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageTarget {
    /// Its owner (whose templates it may use).
    pub user_id: UserId,
    /// Heading of the page.
    pub title: String,
    /// Destination kind (external and card chains).
    pub sub_type: Option<i64>,
    /// Page and destination.
    pub settings: JumpSettings,
    /// Live channels in sort order (ties by id), counts as of the read.
    pub channels: Vec<Channel>,
}

/// What the redirect path reads of a chain (`chains c`), as [`link_from_row`] reads it.
pub(crate) static LINK_COLUMNS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "c.id, c.chain_type, c.target_url, c.valid_time, c.status,
            c.deleted_at IS NOT NULL, c.user_id, c.rules, c.options, c.title, c.sub_type, {}",
        *JUMP_COLUMNS
    )
});

/// How many columns [`LINK_COLUMNS`] names.
pub(crate) const LINK_COLUMN_COUNT: usize = 11 + JUMP_COLUMN_COUNT;

/// What the redirect path reads of the chain with a code on a domain, deleted ones included.
pub(crate) static LINK_BY_CODE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM chains c WHERE c.domain_id = $1 AND c.code = $2",
        *LINK_COLUMNS
    )
});

/// Reads the first nine columns of [`LINK_BY_CODE`] (all a short chain's redirect needs), as
/// a link without a page.
pub(crate) fn link_target_from_row(row: &dyn StoredRow) -> StoreResult<LinkTarget> {
    let rules = rules_from_text(row.opt_text(7)?)?;
    let options = options_from_text(row.opt_text(8)?)?;
    Ok(LinkTarget {
        chain_id: ChainId(row.int(0)?),
        kind: chain_kind(row, 1)?,
        target_url: row.text(2)?,
        valid_time: row.int(3)?,
        status: chain_status(row, 4)?,
        deleted: row.flag(5)?,
        user_id: UserId(row.int(6)?),
        page: None,
        rules: (!rules.is_empty()).then(|| rules.into()),
        options: (!options.is_empty()).then(|| Arc::new(options)),
    })
}

/// Reads a row of [`LINK_BY_CODE`]: the target, and for a chain that shows a page, the page
/// without its channels, which the backend reads next.
pub(crate) fn link_from_row(row: &dyn StoredRow) -> StoreResult<(LinkTarget, Option<PageTarget>)> {
    let target = link_target_from_row(row)?;
    let kind = target.kind;
    let page = match jump_row(row, 11)?.settings(kind)? {
        Some(settings) => Some(PageTarget {
            user_id: UserId(row.int(6)?),
            title: row.text(9)?,
            sub_type: row.opt_int(10)?,
            settings: *settings,
            channels: Vec::new(),
        }),
        None => None,
    };
    Ok((target, page))
}

/// Puts the channels read for a link's page in place.
pub(crate) fn with_channels(
    (mut target, page): (LinkTarget, Option<PageTarget>),
    channels: Vec<Channel>,
) -> LinkTarget {
    target.page = page.map(|page| Arc::new(PageTarget { channels, ..page }));
    target
}
