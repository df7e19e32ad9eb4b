//! Chains on PostgreSQL.

use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tokio_postgres::types::ToSql;

use super::channels::{apply_channel_edit, insert_channel};
use super::{PgStore, PgTx, all, bound, count, execute, first, one};
use crate::model::{
    Chain, ChainId, ChainKind, Domain, DomainId, GroupId, JumpSettings, Timestamp, UserId,
};
use crate::store::chains::{
    ADD_CREATIONS_WITHIN, CLEAR_GROUPS, CODE_HOLDER_COLUMNS, TAKE_LINK_VISIT, chain_from_row,
    chain_select, chain_select_from, chain_walk_statement, code_holder_from_row, insert_each,
    inserted_chain, jump_values, options_text, rules_text, set_jump_statement,
};
use crate::store::domains::{DOMAIN_COLUMNS_OF_D, domain_at};
use crate::store::{
    ChainPatch, ChainQuery, ChainStore, ChainWrites, CodeHolder, LinkTarget, Misuse, NewChain,
    Page, StoreError, StoreResult, VisitLimitWrites,
};

/// [`chain_select`] with PostgreSQL's list of a chain's groups.
static CHAIN_SELECT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    chain_select(
        "ARRAY(SELECT m.group_id FROM chain_group_members m WHERE m.chain_id = c.id
               ORDER BY m.position)",
    )
});

/// Inserts a chain unless its code is taken on its domain, and returns it as
/// [`chain_from_row`] reads it (without groups or jump settings, which are written after).
static INSERT_CHAIN: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH c AS (
            INSERT INTO chains (user_id, chain_type, sub_type, domain_id, code, title,
                target_url, valid_time, status, created_at, updated_at, rules, archived_at,
                imported_visits, options, visits_taken)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12, $13, $14, $15)
            ON CONFLICT (domain_id, code) DO NOTHING RETURNING *
         ) {}",
        chain_select_from("ARRAY[]::bigint[]", "c")
    )
});

/// Inserts `new`'s row (not its groups, jump settings or channels) unless its code is taken:
/// one statement, which on a client outside a transaction commits by itself.
pub(super) async fn insert_plain(
    c: &impl GenericClient,
    new: &NewChain,
) -> StoreResult<Option<Chain>> {
    one(
        c,
        &INSERT_CHAIN,
        &[
            &new.user_id.0,
            &new.kind.code(),
            &new.sub_type,
            &new.domain_id.0,
            &new.code,
            &new.title,
            &new.target_url,
            &new.valid_time,
            &new.status.code(),
            &new.created_at,
            &rules_text(&new.rules),
            &new.archived_at,
            &new.imported_visits,
            &options_text(&new.options),
            &new.visits_taken,
        ],
        chain_from_row,
    )
    .await
}

/// Inserts the rows of `new` (not their groups, jump settings or channels) in one statement,
/// which on a client outside a transaction commits by itself: one result per chain, in order,
/// its id and domain, `None` where its code was taken. A (domain, code) given twice is sent
/// once: the first has it, the later ones find it taken. [`inserted_chains`] makes the chains.
pub(super) async fn insert_plain_rows(
    c: &impl GenericClient,
    new: &[NewChain],
) -> StoreResult<Vec<Option<(ChainId, Domain)>>> {
    let mut seen = std::collections::HashSet::new();
    let mut sent: Vec<&NewChain> = new
        .iter()
        .filter(|n| seen.insert((n.domain_id, n.code.as_str())))
        .collect();
    // Every insert takes its codes in one order (unnest yields the arrays in order): an insert
    // waits on a code another has just inserted until that one commits, and two inserts taking
    // shared codes in different orders would wait on each other, one of them a deadlock's victim.
    sent.sort_unstable_by_key(|n| (n.domain_id, n.code.as_str()));
    let column = |f: fn(&NewChain) -> i64| sent.iter().map(|n| f(n)).collect::<Vec<i64>>();
    let text = |f: fn(&NewChain) -> &str| sent.iter().map(|n| f(n)).collect::<Vec<&str>>();
    let rows = all(
        c,
        &INSERT_CHAINS,
        &[
            &column(|n| n.user_id.0),
            &column(|n| n.kind.code()),
            &sent
                .iter()
                .map(|n| n.sub_type)
                .collect::<Vec<Option<i64>>>(),
            &column(|n| n.domain_id.0),
            &text(|n| &n.code),
            &text(|n| &n.title),
            &text(|n| &n.target_url),
            &column(|n| n.valid_time),
            &column(|n| n.created_at),
            &column(|n| n.status.code()),
            &sent
                .iter()
                .map(|n| rules_text(&n.rules))
                .collect::<Vec<Option<String>>>(),
            &sent
                .iter()
                .map(|n| n.archived_at)
                .collect::<Vec<Option<i64>>>(),
            &column(|n| n.imported_visits),
            &sent
                .iter()
                .map(|n| options_text(&n.options))
                .collect::<Vec<Option<String>>>(),
            &column(|n| n.visits_taken),
        ],
        |row| Ok((ChainId(row.int(0)?), row.text(1)?, domain_at(row, 2)?)),
    )
    .await?;
    let mut by_code: std::collections::HashMap<(DomainId, String), (ChainId, Domain)> = rows
        .into_iter()
        .map(|(id, code, domain)| ((domain.id, code), (id, domain)))
        .collect();
    Ok(new
        .iter()
        .map(|n| by_code.remove(&(n.domain_id, n.code.clone())))
        .collect())
}

/// The chains [`insert_plain_rows`] inserted, from what was given (`new`, in its order) and
/// what it answered.
pub(super) fn inserted_chains(
    new: Vec<NewChain>,
    inserted: Vec<Option<(ChainId, Domain)>>,
) -> Vec<Option<Chain>> {
    new.into_iter()
        .zip(inserted)
        .map(|(n, row)| row.map(|(id, domain)| inserted_chain(n, id, domain)))
        .collect()
}

/// [`INSERT_CHAIN`] of many rows, given column by column; answers each row inserted (id and
/// code) with its domain, in no particular order. The rest of a chain is what was sent: not
/// read back, which for a bulk create of long targets was a second copy of them all.
static INSERT_CHAINS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH c AS (
            INSERT INTO chains (user_id, chain_type, sub_type, domain_id, code, title,
                target_url, valid_time, created_at, status, updated_at, rules, archived_at,
                imported_visits, options, visits_taken)
            SELECT u, k, s, d, code, title, target, vt, at, st, at, rules, arch, iv, opts, vtk
            FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[],
                        $6::text[], $7::text[], $8::bigint[], $9::bigint[], $10::bigint[],
                        $11::text[], $12::bigint[], $13::bigint[], $14::text[], $15::bigint[])
                 AS t(u, k, s, d, code, title, target, vt, at, st, rules, arch, iv, opts, vtk)
            ON CONFLICT (domain_id, code) DO NOTHING RETURNING id, code, domain_id
         )
         SELECT c.id, c.code, {DOMAIN_COLUMNS_OF_D} FROM c JOIN domains d ON d.id = c.domain_id"
    )
});

static CHAIN_BY_ID: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "{} WHERE c.user_id = $1 AND c.id = $2 AND c.deleted_at IS NULL",
        *CHAIN_SELECT
    )
});

async fn chain_by_id(
    c: &impl GenericClient,
    user: UserId,
    id: ChainId,
) -> StoreResult<Option<Chain>> {
    one(c, &CHAIN_BY_ID, &[&user.0, &id.0], chain_from_row).await
}

#[async_trait]
impl ChainStore for PgStore {
    async fn chain(&self, user: UserId, id: ChainId) -> StoreResult<Option<Chain>> {
        chain_by_id(&self.client().await?, user, id).await
    }

    async fn chains_by_ids(&self, user: UserId, ids: &[ChainId]) -> StoreResult<Vec<Chain>> {
        let ids: Vec<i64> = ids.iter().map(|id| id.0).collect();
        self.all(
            &format!(
                "{} WHERE c.user_id = $1 AND c.id = ANY($2) AND c.deleted_at IS NULL",
                *CHAIN_SELECT
            ),
            &[&user.0, &ids],
            chain_from_row,
        )
        .await
    }

    async fn code_holders(
        &self,
        domain: DomainId,
        codes: &[String],
    ) -> StoreResult<Vec<CodeHolder>> {
        self.all(
            &format!(
                "SELECT {CODE_HOLDER_COLUMNS} FROM chains c
                 WHERE c.domain_id = $1 AND c.code = ANY($2)"
            ),
            &[&domain.0, &codes],
            code_holder_from_row,
        )
        .await
    }

    async fn chains_by_code(&self, user: UserId, code: &str) -> StoreResult<Vec<Chain>> {
        self.all(
            &format!(
                "{} WHERE c.user_id = $1 AND c.code = $2 AND c.deleted_at IS NULL
                 ORDER BY c.id",
                *CHAIN_SELECT
            ),
            &[&user.0, &code],
            chain_from_row,
        )
        .await
    }

    async fn chains(&self, user: UserId, query: &ChainQuery) -> StoreResult<Page<Chain>> {
        let (count_of, page) = query.statements(user, &CHAIN_SELECT);
        let client = self.client().await?;
        let total = count(&client, &count_of.sql, &bound(&count_of.values)).await?;
        let items = all(&client, &page.sql, &bound(&page.values), chain_from_row).await?;
        Ok(Page { items, total })
    }

    async fn chains_after(
        &self,
        user: UserId,
        kinds: &[ChainKind],
        after: ChainId,
        limit: i64,
    ) -> StoreResult<Vec<Chain>> {
        let page = chain_walk_statement(&CHAIN_SELECT, user, kinds, after, limit);
        self.all(&page.sql, &bound(&page.values), chain_from_row)
            .await
    }

    async fn link(&self, domain: DomainId, code: &str) -> StoreResult<Option<LinkTarget>> {
        self.read_link(domain, code).await
    }
}

/// Puts a chain in `groups`, in that order.
async fn set_groups(c: &impl GenericClient, chain: ChainId, groups: &[GroupId]) -> StoreResult<()> {
    if groups.is_empty() {
        return Ok(());
    }
    let groups: Vec<i64> = groups.iter().map(|g| g.0).collect();
    execute(
        c,
        "INSERT INTO chain_group_members (chain_id, group_id, position)
         SELECT $1, g, p - 1 FROM unnest($2::bigint[]) WITH ORDINALITY AS t(g, p)
         ON CONFLICT DO NOTHING",
        &[&chain.0, &groups],
    )
    .await?;
    Ok(())
}

/// Writes every jump column of a chain.
async fn set_jump(c: &impl GenericClient, chain: ChainId, jump: &JumpSettings) -> StoreResult<()> {
    static SET_JUMP: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| set_jump_statement(|i| format!("${i}")));
    let (texts, ints) = jump_values(jump);
    let mut values: Vec<&(dyn ToSql + Sync)> = vec![&chain.0];
    values.extend(texts.iter().map(|t| t as &(dyn ToSql + Sync)));
    values.extend(ints.iter().map(|i| i as &(dyn ToSql + Sync)));
    execute(c, &SET_JUMP, &values).await?;
    Ok(())
}

#[async_trait]
impl VisitLimitWrites for PgTx<'_> {
    async fn take_link_visit(
        &mut self,
        chain: ChainId,
        limit: i64,
        count: bool,
    ) -> StoreResult<Option<i64>> {
        let add = i64::from(count);
        one(&self.tx, TAKE_LINK_VISIT, &[&add, &chain.0, &limit], first).await
    }
}

#[async_trait]
impl ChainWrites for PgTx<'_> {
    async fn insert_chain_if_free(&mut self, new: NewChain) -> StoreResult<Option<Chain>> {
        let Some(chain) = insert_plain(&self.tx, &new).await? else {
            return Ok(None);
        };
        if new.group_ids.is_empty() && new.jump.is_none() && new.channels.is_empty() {
            return Ok(Some(chain));
        }
        let id = chain.id;
        set_groups(&self.tx, id, &new.group_ids).await?;
        if let Some(jump) = &new.jump {
            set_jump(&self.tx, id, jump).await?;
        }
        for channel in &new.channels {
            insert_channel(&self.tx, id, channel, new.created_at).await?;
        }
        chain_by_id(&self.tx, new.user_id, id)
            .await?
            .map(Some)
            .ok_or_else(|| StoreError::backend(Misuse("an inserted chain could not be read back")))
    }

    async fn insert_chains_if_free(
        &mut self,
        new: Vec<NewChain>,
    ) -> StoreResult<Vec<Option<Chain>>> {
        if new
            .iter()
            .any(|n| n.jump.is_some() || !n.channels.is_empty())
        {
            return insert_each(self, new).await;
        }
        // One statement for the rows, one for every group membership.
        let inserted = insert_plain_rows(&self.tx, &new).await?;
        let mut members: (Vec<i64>, Vec<i64>, Vec<i64>) = Default::default();
        for (row, n) in inserted.iter().zip(&new) {
            let Some((id, _)) = row else { continue };
            for (position, group) in n.group_ids.iter().enumerate() {
                members.0.push(id.0);
                members.1.push(group.0);
                members.2.push(position as i64);
            }
        }
        if !members.0.is_empty() {
            execute(
                &self.tx,
                "INSERT INTO chain_group_members (chain_id, group_id, position)
                 SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[])
                 ON CONFLICT DO NOTHING",
                &[&members.0, &members.1, &members.2],
            )
            .await?;
        }
        Ok(inserted_chains(new, inserted))
    }

    async fn add_creations(&mut self, user: UserId, day: Timestamp, n: i64) -> StoreResult<i64> {
        one(
            &self.tx,
            "INSERT INTO daily_creations (user_id, day, count) VALUES ($1, $2, $3)
             ON CONFLICT (user_id, day)
             DO UPDATE SET count = daily_creations.count + $3
             RETURNING count",
            &[&user.0, &day, &n],
            first,
        )
        .await?
        .ok_or_else(|| StoreError::backend(Misuse("a counter upsert returned no row")))
    }

    async fn add_creations_within(
        &mut self,
        user: UserId,
        day: Timestamp,
        n: i64,
        default_quota: i64,
    ) -> StoreResult<Option<i64>> {
        one(
            &self.tx,
            ADD_CREATIONS_WITHIN,
            &[&user.0, &day, &n, &default_quota],
            first,
        )
        .await
    }

    async fn update_chain(
        &mut self,
        user: UserId,
        id: ChainId,
        patch: &ChainPatch,
        at: Timestamp,
    ) -> StoreResult<Option<Chain>> {
        let update = patch.statement(user, id, at);
        let changed = execute(&self.tx, &update.sql, &bound(&update.values)).await?;
        if changed == 0 {
            return Ok(None);
        }
        if let Some(jump) = &patch.jump {
            set_jump(&self.tx, id, jump).await?;
        }
        if let Some(groups) = &patch.group_ids {
            execute(&self.tx, CLEAR_GROUPS, &[&id.0]).await?;
            set_groups(&self.tx, id, groups).await?;
        }
        for edit in &patch.channels {
            apply_channel_edit(&self.tx, id, edit, at).await?;
        }
        chain_by_id(&self.tx, user, id).await
    }

    async fn delete_chain(
        &mut self,
        user: UserId,
        id: ChainId,
        at: Timestamp,
    ) -> StoreResult<Option<Chain>> {
        // Lock the row first: of two concurrent deletes, the second sees it deleted.
        let live = one(
            &self.tx,
            "SELECT id FROM chains
             WHERE user_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE",
            &[&user.0, &id.0],
            first,
        )
        .await?;
        if live.is_none() {
            return Ok(None);
        }
        let chain = chain_by_id(&self.tx, user, id).await?;
        execute(
            &self.tx,
            "UPDATE chains SET deleted_at = $2, updated_at = $2 WHERE id = $1",
            &[&id.0, &at],
        )
        .await?;
        Ok(chain)
    }
}
