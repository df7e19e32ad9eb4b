//! Chains: codes on domains and where they lead, with the page settings of the kinds that
//! show a page.

use async_trait::async_trait;

use super::channels::{ChannelEdit, ChannelInput};
use super::domains::{DOMAIN_COLUMNS_OF_D, domain_at};
use super::{Page, Statement, StoreError, StoreResult, StoredRow, bad_value};
use crate::model::{
    Chain, ChainId, ChainKind, ChainStatus, Domain, DomainId, GroupId, JumpSettings, LinkOptions,
    RedirectRule, Timestamp, UserId,
};

mod jump;
mod limits;
mod links;

use jump::jump_row;
pub(crate) use jump::{JUMP_COLUMN_COUNT, JUMP_COLUMNS, jump_values, set_jump_statement};
pub(crate) use limits::TAKE_LINK_VISIT;
pub use limits::VisitLimitWrites;
pub(crate) use links::{
    LINK_BY_CODE, LINK_COLUMN_COUNT, LINK_COLUMNS, link_from_row, link_target_from_row,
    with_channels,
};
pub use links::{LinkTarget, PageTarget};

/// A new chain; the service has validated every field.
#[derive(Debug, Clone)]
pub struct NewChain {
    /// Owner.
    pub user_id: UserId,
    /// Kind.
    pub kind: ChainKind,
    /// Destination kind of messaging-app chains.
    pub sub_type: Option<i64>,
    /// Domain it is served on.
    pub domain_id: DomainId,
    /// Unique suffix on the domain.
    pub code: String,
    /// Label.
    pub title: String,
    /// Destination.
    pub target_url: String,
    /// Groups, already checked to be the owner's.
    pub group_ids: Vec<GroupId>,
    /// Expiry; 0 permanent.
    pub valid_time: Timestamp,
    /// Creation time.
    pub created_at: Timestamp,
    /// Page and destination of messaging-app and work-chat chains.
    pub jump: Option<JumpSettings>,
    /// Channels, in the order given.
    pub channels: Vec<ChannelInput>,
    /// Redirect rules of a short chain, in order.
    pub rules: Vec<RedirectRule>,
    /// Stored status: `Normal`, or `Disabled` for an imported chain that was.
    pub status: ChainStatus,
    /// When an imported chain was archived; `None` for every other.
    pub archived_at: Option<Timestamp>,
    /// Visits an imported chain had before (0 for every other).
    pub imported_visits: i64,
    /// A short chain's options.
    pub options: LinkOptions,
    /// Visits already taken against its `max_visits` (an imported chain's; 0 for every other).
    pub visits_taken: i64,
}

/// Changes to a chain; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct ChainPatch {
    /// New label.
    pub title: Option<String>,
    /// New destination.
    pub target_url: Option<String>,
    /// New expiry.
    pub valid_time: Option<Timestamp>,
    /// New stored status.
    pub status: Option<ChainStatus>,
    /// New destination kind.
    pub sub_type: Option<i64>,
    /// New page and destination settings, replacing all of them.
    pub jump: Option<JumpSettings>,
    /// New group memberships, replacing the old ones.
    pub group_ids: Option<Vec<GroupId>>,
    /// Channel changes, applied in order.
    pub channels: Vec<ChannelEdit>,
    /// New redirect rules, replacing the old ones (empty: none).
    pub rules: Option<Vec<RedirectRule>>,
    /// Archived (from the time of the change, unless it already was) or not.
    pub archived: Option<bool>,
    /// New options, replacing all of them.
    pub options: Option<LinkOptions>,
}

impl ChainPatch {
    /// Whether the patch changes nothing.
    pub fn is_empty(&self) -> bool {
        self.title.is_none()
            && self.target_url.is_none()
            && self.valid_time.is_none()
            && self.status.is_none()
            && self.sub_type.is_none()
            && self.jump.is_none()
            && self.group_ids.is_none()
            && self.channels.is_empty()
            && self.rules.is_none()
            && self.archived.is_none()
            && self.options.is_none()
    }

    /// The statement writing the patch's own columns of `user`'s live chain `id` at `at` (it
    /// changes no row when there is none); the backend then writes the jump settings, groups
    /// and channels, each in the rows of its own.
    pub(crate) fn statement(&self, user: UserId, id: ChainId, at: Timestamp) -> Statement {
        let mut update = Statement::default();
        let at = update.bind(at);
        let mut sets = vec![format!("updated_at = {at}")];
        let mut set = |column: &str, value: Option<super::Bound>| {
            if let Some(value) = value {
                let placeholder = update.bind(value);
                sets.push(format!("{column} = {placeholder}"));
            }
        };
        set("title", self.title.clone().map(Into::into));
        set("target_url", self.target_url.clone().map(Into::into));
        set("valid_time", self.valid_time.map(Into::into));
        set("status", self.status.map(|s| s.code().into()));
        set("sub_type", self.sub_type.map(Into::into));
        set("rules", self.rules.as_deref().map(|r| rules_text(r).into()));
        set(
            "options",
            self.options.as_ref().map(|o| options_text(o).into()),
        );
        match self.archived {
            Some(true) => sets.push(format!("archived_at = coalesce(archived_at, {at})")),
            Some(false) => sets.push("archived_at = NULL".to_owned()),
            None => {}
        }
        let (user, id) = (update.bind(user.0), update.bind(id.0));
        update.sql = format!(
            "UPDATE chains SET {} WHERE user_id = {user} AND id = {id} AND deleted_at IS NULL",
            sets.join(", ")
        );
        update
    }
}

/// Which of a user's chains a listing takes: one type from the handlers that decode it,
/// through the service that checks it, to the store that reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChainFilter {
    /// Only chains in this group.
    pub group_id: Option<GroupId>,
    /// Only chains whose title or code contains this text.
    pub text: Option<String>,
    /// Only chains created at or after this time.
    pub created_from: Option<Timestamp>,
    /// Only chains created at or before this time.
    pub created_until: Option<Timestamp>,
    /// Only archived chains (`Some(true)`), only the others (`Some(false)`), or both.
    pub archived: Option<bool>,
}

/// Filter and page of a chain listing.
#[derive(Debug, Clone, Default)]
pub struct ChainQuery {
    /// Only these kinds; empty means all.
    pub kinds: Vec<ChainKind>,
    /// Which chains.
    pub filter: ChainFilter,
    /// Rows to skip.
    pub offset: i64,
    /// Rows to return.
    pub limit: i64,
}

impl ChainQuery {
    /// The statements of this listing of `user`'s live chains: the count of all that match,
    /// and the page of them, newest first, selected by `select` (the backend's
    /// [`chain_select`]). Only the filter's conditions that are set are written, so the
    /// planner sees what is asked.
    pub(crate) fn statements(&self, user: UserId, select: &str) -> (Statement, Statement) {
        let mut listing = Statement::default();
        let mut terms = live_chains_of(&mut listing, user, &self.kinds);
        let filter = &self.filter;
        if let Some(group) = filter.group_id {
            terms.push(format!(
                "EXISTS (SELECT 1 FROM chain_group_members m
                    WHERE m.chain_id = c.id AND m.group_id = {})",
                listing.bind(group.0)
            ));
        }
        if let Some(text) = &filter.text {
            let text = listing.bind(like_pattern(text));
            terms.push(format!(
                "(c.title LIKE {text} ESCAPE '\\' OR c.code LIKE {text} ESCAPE '\\')"
            ));
        }
        if let Some(from) = filter.created_from {
            terms.push(format!("c.created_at >= {}", listing.bind(from)));
        }
        if let Some(until) = filter.created_until {
            terms.push(format!("c.created_at <= {}", listing.bind(until)));
        }
        match filter.archived {
            Some(true) => terms.push("c.archived_at IS NOT NULL".to_owned()),
            Some(false) => terms.push("c.archived_at IS NULL".to_owned()),
            None => {}
        }
        let terms = terms.join(" AND ");
        let count = Statement {
            sql: format!("SELECT count(*) FROM chains c WHERE {terms}"),
            values: listing.values.clone(),
        };
        let (limit, offset) = (listing.bind(self.limit), listing.bind(self.offset));
        listing.sql = format!(
            "{select} WHERE {terms}
             ORDER BY c.created_at DESC, c.id DESC LIMIT {limit} OFFSET {offset}"
        );
        (count, listing)
    }
}

/// The conditions, bound in `statement`, that take `user`'s live chains of `kinds` (all when
/// empty), as a listing and a walk both start.
fn live_chains_of(statement: &mut Statement, user: UserId, kinds: &[ChainKind]) -> Vec<String> {
    let mut terms = vec![
        format!("c.user_id = {}", statement.bind(user.0)),
        "c.deleted_at IS NULL".to_owned(),
    ];
    if !kinds.is_empty() {
        let kinds: Vec<String> = kinds.iter().map(|k| statement.bind(k.code())).collect();
        terms.push(format!("c.chain_type IN ({})", kinds.join(", ")));
    }
    terms
}

/// The statement of a page of a walk over `user`'s live chains of `kinds` (all when empty):
/// up to `limit` with ids above `after`, in id order, selected by `select` (the backend's
/// [`chain_select`]). Each page starts where the last ended, so a walk holds one page, sees
/// each chain once however many are created meanwhile, and counts nothing.
pub(crate) fn chain_walk_statement(
    select: &str,
    user: UserId,
    kinds: &[ChainKind],
    after: ChainId,
    limit: i64,
) -> Statement {
    let mut walk = Statement::default();
    let mut terms = live_chains_of(&mut walk, user, kinds);
    terms.push(format!("c.id > {}", walk.bind(after.0)));
    let limit = walk.bind(limit);
    walk.sql = format!(
        "{select} WHERE {} ORDER BY c.id LIMIT {limit}",
        terms.join(" AND ")
    );
    walk
}

pub(crate) fn chain_kind(row: &dyn StoredRow, idx: usize) -> StoreResult<ChainKind> {
    let v = row.int(idx)?;
    ChainKind::from_code(v).ok_or_else(|| bad_value("chain_type", v))
}

pub(crate) fn chain_status(row: &dyn StoredRow, idx: usize) -> StoreResult<ChainStatus> {
    let v = row.int(idx)?;
    ChainStatus::from_code(v).ok_or_else(|| bad_value("status", v))
}

/// A chain, its groups, its domain (from column 13) and its jump settings (from column
/// [`JUMP_AT`]), as [`chain_from_row`] reads them. `group_ids` is the backend's expression for
/// the list of the chain's groups in order, which [`StoredRow::ids`] reads.
pub(crate) fn chain_select(group_ids: &str) -> String {
    chain_select_from(group_ids, "chains c")
}

/// [`chain_select`] of the chain rows `chains`, named `c` (a table, or the rows an
/// `INSERT ... RETURNING *` returned).
pub(crate) fn chain_select_from(group_ids: &str, chains: &str) -> String {
    format!(
        "SELECT c.id, c.user_id, c.chain_type, c.sub_type, c.code, c.title,
            c.target_url, c.valid_time, c.status, c.deleted_at, c.created_at, c.updated_at,
            {group_ids}, {DOMAIN_COLUMNS_OF_D}, {jump}, c.rules, c.archived_at,
            c.imported_visits, c.options, c.visits_taken
        FROM {chains} JOIN domains d ON d.id = c.domain_id",
        jump = *JUMP_COLUMNS
    )
}

/// The first jump column of [`chain_select`].
const JUMP_AT: usize = 21;
/// The rules column of [`chain_select`].
const RULES_AT: usize = JUMP_AT + JUMP_COLUMN_COUNT;

pub(crate) fn chain_from_row(row: &dyn StoredRow) -> StoreResult<Chain> {
    let kind = chain_kind(row, 2)?;
    Ok(Chain {
        id: ChainId(row.int(0)?),
        user_id: UserId(row.int(1)?),
        kind,
        sub_type: row.opt_int(3)?,
        code: row.text(4)?,
        title: row.text(5)?,
        target_url: row.text(6)?,
        valid_time: row.int(7)?,
        stored_status: chain_status(row, 8)?,
        deleted_at: row.opt_int(9)?,
        created_at: row.int(10)?,
        updated_at: row.int(11)?,
        group_ids: row.ids(12)?.into_iter().map(GroupId).collect(),
        domain: domain_at(row, 13)?,
        jump: jump_row(row, JUMP_AT)?.settings(kind)?,
        rules: rules_from_text(row.opt_text(RULES_AT)?)?,
        archived_at: row.opt_int(RULES_AT + 1)?,
        imported_visits: row.int(RULES_AT + 2)?,
        options: options_from_text(row.opt_text(RULES_AT + 3)?)?,
        visits_taken: row.int(RULES_AT + 4)?,
    })
}

/// The chain `new` became when inserted as `id` on `domain`, as reading it back would give
/// it, for a chain without jump settings or channels (whose rows are read back): a bulk create
/// then holds its chains once, not once as given and again as read.
pub(crate) fn inserted_chain(new: NewChain, id: ChainId, domain: Domain) -> Chain {
    Chain {
        id,
        user_id: new.user_id,
        kind: new.kind,
        sub_type: new.sub_type,
        domain,
        code: new.code,
        title: new.title,
        target_url: new.target_url,
        group_ids: new.group_ids,
        valid_time: new.valid_time,
        stored_status: new.status,
        deleted_at: None,
        archived_at: new.archived_at,
        created_at: new.created_at,
        updated_at: new.created_at,
        jump: None,
        rules: new.rules,
        imported_visits: new.imported_visits,
        options: new.options,
        visits_taken: new.visits_taken,
    }
}

/// A chain's rules as stored: JSON, `None` for none.
pub(crate) fn rules_text(rules: &[RedirectRule]) -> Option<String> {
    // Serializing plain strings and maps cannot fail.
    (!rules.is_empty()).then(|| serde_json::to_string(rules).unwrap_or_default())
}

/// A chain's rules from what is stored.
pub(crate) fn rules_from_text(text: Option<String>) -> StoreResult<Vec<RedirectRule>> {
    match text.as_deref() {
        None | Some("") => Ok(Vec::new()),
        Some(json) => serde_json::from_str(json).map_err(|_| bad_value("rules", json)),
    }
}

/// A chain's options as stored: JSON, `None` for none.
pub(crate) fn options_text(options: &LinkOptions) -> Option<String> {
    // Serializing numbers cannot fail.
    (!options.is_empty()).then(|| serde_json::to_string(options).unwrap_or_default())
}

/// A chain's options from what is stored.
pub(crate) fn options_from_text(text: Option<String>) -> StoreResult<LinkOptions> {
    match text.as_deref() {
        None | Some("") => Ok(LinkOptions::default()),
        Some(json) => serde_json::from_str(json).map_err(|_| bad_value("options", json)),
    }
}

/// Takes a chain out of every group (before it is put in others).
pub(crate) const CLEAR_GROUPS: &str = "DELETE FROM chain_group_members WHERE chain_id = $1";

/// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`.
pub(crate) fn like_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('%');
    for ch in text.chars() {
        if matches!(ch, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push('%');
    out
}

/// The chain that holds a code on a domain, live or deleted (codes are never reused), whoever
/// owns it: what an import needs to tell its own earlier work from a clash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeHolder {
    /// The code.
    pub code: String,
    /// The chain.
    pub chain_id: ChainId,
    /// Its owner.
    pub user_id: UserId,
    /// Its kind.
    pub kind: ChainKind,
    /// Its destination (empty for chains that show a page).
    pub target_url: String,
    /// Whether it was deleted.
    pub deleted: bool,
}

/// The columns [`code_holder_from_row`] reads, from `chains c`.
pub(crate) const CODE_HOLDER_COLUMNS: &str =
    "c.code, c.id, c.user_id, c.chain_type, c.target_url, c.deleted_at IS NOT NULL";

pub(crate) fn code_holder_from_row(row: &dyn StoredRow) -> StoreResult<CodeHolder> {
    Ok(CodeHolder {
        code: row.text(0)?,
        chain_id: ChainId(row.int(1)?),
        user_id: UserId(row.int(2)?),
        kind: chain_kind(row, 3)?,
        target_url: row.text(4)?,
        deleted: row.flag(5)?,
    })
}

/// Chains.
#[async_trait]
pub trait ChainStore: Send + Sync {
    /// One of the user's live chains.
    async fn chain(&self, user: UserId, id: ChainId) -> StoreResult<Option<Chain>>;
    /// Those of `ids` that are the user's live chains, in no particular order: one read
    /// however many.
    async fn chains_by_ids(&self, user: UserId, ids: &[ChainId]) -> StoreResult<Vec<Chain>>;
    /// The user's live chains with this code (one per domain at most).
    async fn chains_by_code(&self, user: UserId, code: &str) -> StoreResult<Vec<Chain>>;
    /// The chains holding those of `codes` that are taken on `domain`, anyone's, deleted ones
    /// included, in no particular order: one read however many.
    async fn code_holders(
        &self,
        domain: DomainId,
        codes: &[String],
    ) -> StoreResult<Vec<CodeHolder>>;
    /// A page of the user's live chains, newest first.
    async fn chains(&self, user: UserId, query: &ChainQuery) -> StoreResult<Page<Chain>>;
    /// Up to `limit` of the user's live chains of `kinds` (all when empty) with ids above
    /// `after`, in id order: one page of a walk over all of them (an export), which starts
    /// the next page after the last id it got.
    async fn chains_after(
        &self,
        user: UserId,
        kinds: &[ChainKind],
        after: ChainId,
        limit: i64,
    ) -> StoreResult<Vec<Chain>>;
    /// The chain with `code` on `domain`, deleted ones included; for redirects.
    async fn link(&self, domain: DomainId, code: &str) -> StoreResult<Option<LinkTarget>>;
}

/// [`ChainWrites::insert_chains_if_free`] one chain after another.
pub(crate) async fn insert_each<W: ChainWrites + ?Sized>(
    tx: &mut W,
    new: Vec<NewChain>,
) -> StoreResult<Vec<Option<Chain>>> {
    let mut inserted = Vec::with_capacity(new.len());
    for chain in new {
        inserted.push(tx.insert_chain_if_free(chain).await?);
    }
    Ok(inserted)
}

/// Adds `$3` to a user's count of creations on a day unless the count would pass their
/// daily quota (their own, else `$4`); returns the new count, or no row when it would pass.
pub(crate) const ADD_CREATIONS_WITHIN: &str =
    "INSERT INTO daily_creations AS d (user_id, day, count)
     SELECT $1, $2, $3 WHERE $3 <= (SELECT coalesce(daily_quota, $4) FROM users WHERE id = $1)
     ON CONFLICT (user_id, day) DO UPDATE SET count = d.count + $3
        WHERE d.count + $3 <= (SELECT coalesce(daily_quota, $4) FROM users WHERE id = $1)
     RETURNING count";

/// Writes to chains.
#[async_trait]
pub trait ChainWrites: Send {
    /// Inserts a chain and its group memberships, unless its code is taken on its domain
    /// (`None`). A taken code does not fail the transaction, so a bulk create goes on with its
    /// next item.
    async fn insert_chain_if_free(&mut self, new: NewChain) -> StoreResult<Option<Chain>>;
    /// [`ChainWrites::insert_chain_if_free`] of each of `new`, in order: one result per chain,
    /// `None` where its code was taken (or given earlier in `new` on the same domain). A
    /// backend may insert them all in one statement.
    async fn insert_chains_if_free(
        &mut self,
        new: Vec<NewChain>,
    ) -> StoreResult<Vec<Option<Chain>>>;
    /// Inserts a chain and its group memberships; a taken code is
    /// [`StoreError::Conflict`]`(`[`Unique::ChainCode`](super::Unique::ChainCode)`)`.
    async fn insert_chain(&mut self, new: NewChain) -> StoreResult<Chain> {
        self.insert_chain_if_free(new)
            .await?
            .ok_or(StoreError::Conflict(super::Unique::ChainCode))
    }
    /// Adds `n` (0 or more) to the user's count of chains created on `day` (the start of a
    /// calendar day) and returns the new count. Concurrent transactions counting for the same
    /// user and day are serialized on the counter until they commit, so every caller sees a
    /// distinct count, and adding 0 reads the count and holds it.
    async fn add_creations(&mut self, user: UserId, day: Timestamp, n: i64) -> StoreResult<i64>;
    /// [`ChainWrites::add_creations`] unless the count would pass the user's daily quota
    /// (their own, else `default_quota`): the new count, or `None` (and nothing added) when
    /// it would.
    async fn add_creations_within(
        &mut self,
        user: UserId,
        day: Timestamp,
        n: i64,
        default_quota: i64,
    ) -> StoreResult<Option<i64>>;
    /// Applies a patch to one of the user's live chains; returns it as it now stands.
    async fn update_chain(
        &mut self,
        user: UserId,
        id: ChainId,
        patch: &ChainPatch,
        at: Timestamp,
    ) -> StoreResult<Option<Chain>>;
    /// Deletes one of the user's live chains at `at`; returns it as it was, `None` when the
    /// user has no such live chain.
    async fn delete_chain(
        &mut self,
        user: UserId,
        id: ChainId,
        at: Timestamp,
    ) -> StoreResult<Option<Chain>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placeholders of `sql` in order of first use, and whether each is the next one: what
    /// SQLite, which numbers `$N` as it first meets them, needs to bind `values[N - 1]`.
    fn assert_bindable(statement: &Statement) {
        let mut seen = Vec::new();
        let mut rest = statement.sql.as_str();
        while let Some(at) = rest.find('$') {
            let digits: String = rest[at + 1..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let n: usize = digits.parse().expect("a numbered placeholder");
            if !seen.contains(&n) {
                assert_eq!(n, seen.len() + 1, "{}", statement.sql);
                seen.push(n);
            }
            rest = &rest[at + 1 + digits.len()..];
        }
        assert_eq!(seen.len(), statement.values.len(), "{}", statement.sql);
    }

    #[test]
    fn every_listing_and_patch_numbers_its_placeholders_as_it_binds_them() {
        for mask in 0..64u32 {
            let on = |bit: u32| mask & (1 << bit) != 0;
            let query = ChainQuery {
                kinds: if on(5) {
                    vec![ChainKind::Messaging, ChainKind::Card]
                } else {
                    Vec::new()
                },
                filter: ChainFilter {
                    group_id: on(0).then_some(GroupId(3)),
                    text: on(1).then(|| "a_b".to_owned()),
                    created_from: on(2).then_some(10),
                    created_until: on(3).then_some(20),
                    archived: on(4).then_some(mask % 3 == 0),
                },
                offset: 40,
                limit: 20,
            };
            let (count, page) = query.statements(UserId(1), "SELECT c.id FROM chains c");
            assert_bindable(&count);
            assert_bindable(&page);
            assert_eq!(page.values[..count.values.len()], count.values[..]);
            let patch = ChainPatch {
                title: on(0).then(|| "t".to_owned()),
                target_url: on(1).then(|| "https://example.com/".to_owned()),
                valid_time: on(2).then_some(0),
                status: on(3).then_some(ChainStatus::Normal),
                sub_type: on(4).then_some(1),
                rules: on(5).then(Vec::new),
                archived: [None, Some(true), Some(false)][mask as usize % 3],
                ..ChainPatch::default()
            };
            assert_bindable(&patch.statement(UserId(1), ChainId(2), 30));
        }
        for kinds in [
            &[][..],
            &[ChainKind::Short],
            &[ChainKind::Messaging, ChainKind::Card],
        ] {
            let select = "SELECT c.id FROM chains c";
            assert_bindable(&chain_walk_statement(
                select,
                UserId(1),
                kinds,
                ChainId(9),
                100,
            ));
        }
    }
}
