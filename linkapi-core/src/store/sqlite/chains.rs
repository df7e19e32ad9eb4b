//! Chains on SQLite.

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};

use super::channels::{apply_channel_edit, channels_of, insert_channel};
use super::{SqliteStore, SqliteTx, all, first, one, unique_or_backend};
use crate::model::{Chain, ChainId, ChainKind, DomainId, GroupId, JumpSettings, Timestamp, UserId};
use crate::store::chains::{
    ADD_CREATIONS_WITHIN, CLEAR_GROUPS, CODE_HOLDER_COLUMNS, LINK_BY_CODE, TAKE_LINK_VISIT,
    chain_from_row, chain_select, chain_walk_statement, code_holder_from_row, insert_each,
    inserted_chain, jump_values, link_from_row, link_target_from_row, options_text, rules_text,
    set_jump_statement, with_channels,
};
use crate::store::domains::{DOMAIN_BY_ID, domain_from_row};
use crate::store::{
    ChainPatch, ChainQuery, ChainStore, ChainWrites, CodeHolder, LinkTarget, Misuse, NewChain,
    Page, StoreError, StoreResult, Unique, VisitLimitWrites,
};

/// [`chain_select`] with SQLite's list of a chain's groups.
static CHAIN_SELECT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    chain_select(
        "(SELECT group_concat(group_id) FROM
            (SELECT group_id FROM chain_group_members m WHERE m.chain_id = c.id
             ORDER BY position))",
    )
});

/// The first columns of [`LINK_BY_CODE`], read from the index that holds them
/// (`chains_redirect`, migration 10) without reading the table: what a short chain's redirect
/// needs.
const SHORT_LINK_BY_CODE: &str = "SELECT id, chain_type, target_url, valid_time, status,
        deleted_at IS NOT NULL, user_id, rules, options
     FROM chains INDEXED BY chains_redirect WHERE domain_id = ?1 AND code = ?2";

static CHAIN_BY_ID: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "{} WHERE c.user_id = $1 AND c.id = $2 AND c.deleted_at IS NULL",
        *CHAIN_SELECT
    )
});

fn chain_by_id(c: &Connection, user: UserId, id: ChainId) -> StoreResult<Option<Chain>> {
    one(c, &CHAIN_BY_ID, [user.0, id.0], chain_from_row)
}

#[async_trait]
impl ChainStore for SqliteStore {
    async fn chain(&self, user: UserId, id: ChainId) -> StoreResult<Option<Chain>> {
        self.read(move |c| chain_by_id(c, user, id)).await
    }

    async fn chains_by_ids(&self, user: UserId, ids: &[ChainId]) -> StoreResult<Vec<Chain>> {
        let ids = ids.to_vec();
        // In-process point reads in one read transaction: no round trips to save.
        self.read(move |c| {
            let mut found = Vec::with_capacity(ids.len());
            for id in ids {
                found.extend(chain_by_id(c, user, id)?);
            }
            Ok(found)
        })
        .await
    }

    async fn code_holders(
        &self,
        domain: DomainId,
        codes: &[String],
    ) -> StoreResult<Vec<CodeHolder>> {
        // The codes as one JSON array, each looked up by the (domain, code) index (as a join,
        // the planner scanned the chains for every code).
        let codes = serde_json::to_string(codes).unwrap_or_else(|_| "[]".to_owned());
        self.read(move |c| {
            all(
                c,
                &format!(
                    "SELECT {CODE_HOLDER_COLUMNS} FROM chains c
                     WHERE c.domain_id = ?1 AND c.code IN (SELECT value FROM json_each(?2))"
                ),
                params![domain.0, codes],
                code_holder_from_row,
            )
        })
        .await
    }

    async fn chains_by_code(&self, user: UserId, code: &str) -> StoreResult<Vec<Chain>> {
        let code = code.to_owned();
        self.read(move |c| {
            all(
                c,
                &format!(
                    "{} WHERE c.user_id = $1 AND c.code = $2 AND c.deleted_at IS NULL
                     ORDER BY c.id",
                    *CHAIN_SELECT
                ),
                params![user.0, code],
                chain_from_row,
            )
        })
        .await
    }

    async fn chains(&self, user: UserId, query: &ChainQuery) -> StoreResult<Page<Chain>> {
        let (count, page) = query.statements(user, &CHAIN_SELECT);
        self.read(move |c| {
            let total = super::count(c, &count.sql, params_from_iter(&count.values))?;
            let items = all(c, &page.sql, params_from_iter(&page.values), chain_from_row)?;
            Ok(Page { items, total })
        })
        .await
    }

    async fn chains_after(
        &self,
        user: UserId,
        kinds: &[ChainKind],
        after: ChainId,
        limit: i64,
    ) -> StoreResult<Vec<Chain>> {
        let page = chain_walk_statement(&CHAIN_SELECT, user, kinds, after, limit);
        self.read(move |c| all(c, &page.sql, params_from_iter(&page.values), chain_from_row))
            .await
    }

    async fn link(&self, domain: DomainId, code: &str) -> StoreResult<Option<LinkTarget>> {
        let code = code.to_owned();
        self.read_point(move |c| {
            let Some(link) = one(
                c,
                SHORT_LINK_BY_CODE,
                params![domain.0, code],
                link_target_from_row,
            )?
            else {
                return Ok(None);
            };
            if link.kind == ChainKind::Short {
                return Ok(Some(link));
            }
            // A chain that shows a page: its page is in the table's row and its channels.
            let Some(found) = one(c, &LINK_BY_CODE, params![domain.0, code], link_from_row)? else {
                return Ok(None);
            };
            let channels = match &found.1 {
                Some(_) => channels_of(c, found.0.chain_id)?,
                None => Vec::new(),
            };
            Ok(Some(with_channels(found, channels)))
        })
        .await
    }
}

#[async_trait]
impl VisitLimitWrites for SqliteTx<'_> {
    async fn take_link_visit(
        &mut self,
        chain: ChainId,
        limit: i64,
        count: bool,
    ) -> StoreResult<Option<i64>> {
        one(
            self.conn,
            TAKE_LINK_VISIT,
            params![i64::from(count), chain.0, limit],
            first,
        )
    }
}

/// Puts a chain in `groups`, in that order.
fn set_groups(conn: &Connection, chain: ChainId, groups: &[GroupId]) -> StoreResult<()> {
    for (position, group) in groups.iter().enumerate() {
        conn.prepare_cached(
            "INSERT OR IGNORE INTO chain_group_members (chain_id, group_id, position)
             VALUES (?1, ?2, ?3)",
        )?
        .execute(params![chain.0, group.0, position as i64])?;
    }
    Ok(())
}

/// Writes every jump column of a chain.
fn set_jump(conn: &Connection, chain: ChainId, jump: &JumpSettings) -> StoreResult<()> {
    static SET_JUMP: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| set_jump_statement(|i| format!("?{i}")));
    let (texts, ints) = jump_values(jump);
    let mut values: Vec<&dyn rusqlite::ToSql> = vec![&chain.0];
    values.extend(texts.iter().map(|t| t as &dyn rusqlite::ToSql));
    values.extend(ints.iter().map(|i| i as &dyn rusqlite::ToSql));
    conn.prepare_cached(&SET_JUMP)?.execute(values.as_slice())?;
    Ok(())
}

#[async_trait]
impl ChainWrites for SqliteTx<'_> {
    async fn insert_chain_if_free(&mut self, new: NewChain) -> StoreResult<Option<Chain>> {
        let inserted: Option<i64> = self
            .conn
            .prepare_cached(
                "INSERT INTO chains (user_id, chain_type, sub_type, domain_id, code, title,
                    target_url, valid_time, status, created_at, updated_at, rules, archived_at,
                    imported_visits, options, visits_taken)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, ?12, ?13, ?14, ?15)
                 ON CONFLICT (domain_id, code) DO NOTHING RETURNING id",
            )
            .and_then(|mut insert| {
                insert
                    .query_row(
                        params![
                            new.user_id.0,
                            new.kind.code(),
                            new.sub_type,
                            new.domain_id.0,
                            new.code,
                            new.title,
                            new.target_url,
                            new.valid_time,
                            new.status.code(),
                            new.created_at,
                            rules_text(&new.rules),
                            new.archived_at,
                            new.imported_visits,
                            options_text(&new.options),
                            new.visits_taken
                        ],
                        |r| r.get(0),
                    )
                    .optional()
            })
            .map_err(|e| unique_or_backend(e, Unique::ChainCode))?;
        let Some(id) = inserted.map(ChainId) else {
            return Ok(None);
        };
        set_groups(self.conn, id, &new.group_ids)?;
        if new.jump.is_none() && new.channels.is_empty() {
            let domain = one(self.conn, &DOMAIN_BY_ID, [new.domain_id.0], domain_from_row)?
                .ok_or_else(|| StoreError::backend(Misuse("a chain's domain is missing")))?;
            return Ok(Some(inserted_chain(new, id, domain)));
        }
        if let Some(jump) = &new.jump {
            set_jump(self.conn, id, jump)?;
        }
        for channel in &new.channels {
            insert_channel(self.conn, id, channel, new.created_at)?;
        }
        chain_by_id(self.conn, new.user_id, id)?
            .map(Some)
            .ok_or_else(|| StoreError::backend(Misuse("an inserted chain could not be read back")))
    }

    async fn insert_chains_if_free(
        &mut self,
        new: Vec<NewChain>,
    ) -> StoreResult<Vec<Option<Chain>>> {
        // In process, a statement costs no round trip: one by one is as fast.
        insert_each(self, new).await
    }

    async fn add_creations(&mut self, user: UserId, day: Timestamp, n: i64) -> StoreResult<i64> {
        Ok(self
            .conn
            .prepare_cached(
                "INSERT INTO daily_creations (user_id, day, count) VALUES (?1, ?2, ?3)
                 ON CONFLICT (user_id, day) DO UPDATE SET count = count + ?3
                 RETURNING count",
            )?
            .query_row(params![user.0, day, n], |r| r.get(0))?)
    }

    async fn add_creations_within(
        &mut self,
        user: UserId,
        day: Timestamp,
        n: i64,
        default_quota: i64,
    ) -> StoreResult<Option<i64>> {
        one(
            self.conn,
            ADD_CREATIONS_WITHIN,
            params![user.0, day, n, default_quota],
            first,
        )
    }

    async fn update_chain(
        &mut self,
        user: UserId,
        id: ChainId,
        patch: &ChainPatch,
        at: Timestamp,
    ) -> StoreResult<Option<Chain>> {
        let update = patch.statement(user, id, at);
        let changed = self
            .conn
            .execute(&update.sql, params_from_iter(&update.values))?;
        if changed == 0 {
            return Ok(None);
        }
        if let Some(jump) = &patch.jump {
            set_jump(self.conn, id, jump)?;
        }
        if let Some(groups) = &patch.group_ids {
            self.conn.execute(CLEAR_GROUPS, [id.0])?;
            set_groups(self.conn, id, groups)?;
        }
        for edit in &patch.channels {
            apply_channel_edit(self.conn, id, edit, at)?;
        }
        chain_by_id(self.conn, user, id)
    }

    async fn delete_chain(
        &mut self,
        user: UserId,
        id: ChainId,
        at: Timestamp,
    ) -> StoreResult<Option<Chain>> {
        let Some(chain) = chain_by_id(self.conn, user, id)? else {
            return Ok(None);
        };
        self.conn.execute(
            "UPDATE chains SET deleted_at = ?2, updated_at = ?2 WHERE id = ?1",
            params![id.0, at],
        )?;
        Ok(Some(chain))
    }
}
