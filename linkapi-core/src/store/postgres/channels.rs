//! Channels on PostgreSQL.

use async_trait::async_trait;
use deadpool_postgres::GenericClient;

use super::{PgStore, PgTx, all, execute, first, one};
use crate::model::{ChainId, Channel, ChannelId, Timestamp, VisitCap};
use crate::store::channels::{CHANNELS_OF, INSERT_CHANNEL, channel_from_row};
use crate::store::{ChannelEdit, ChannelInput, ChannelStore, ChannelWrites, StoreResult};

pub(super) async fn channels_of(
    c: &impl GenericClient,
    chain: ChainId,
) -> StoreResult<Vec<Channel>> {
    all(c, &CHANNELS_OF, &[&chain.0], channel_from_row).await
}

pub(super) async fn insert_channel(
    conn: &impl GenericClient,
    chain: ChainId,
    c: &ChannelInput,
    at: Timestamp,
) -> StoreResult<()> {
    execute(
        conn,
        INSERT_CHANNEL,
        &[
            &chain.0,
            &c.sort,
            &c.name,
            &c.url,
            &c.url2,
            &c.expires_at,
            &c.ratio,
            &c.visit_limit,
            &i64::from(c.enabled),
            &at,
        ],
    )
    .await?;
    Ok(())
}

/// Applies one change to a chain's channel list.
pub(super) async fn apply_channel_edit(
    conn: &impl GenericClient,
    chain: ChainId,
    edit: &ChannelEdit,
    at: Timestamp,
) -> StoreResult<()> {
    match edit {
        ChannelEdit::Add(channel) => insert_channel(conn, chain, channel, at).await?,
        ChannelEdit::Change(channel_id, c) => {
            execute(
                conn,
                "UPDATE channels SET sort = $3, qrcode_name = $4, url = $5,
                    url2 = $6, qrcode_time = $7, ratio = $8, visit_limit = $9,
                    status = $10
                 WHERE id = $1 AND chain_id = $2 AND deleted_at IS NULL",
                &[
                    &channel_id.0,
                    &chain.0,
                    &c.sort,
                    &c.name,
                    &c.url,
                    &c.url2,
                    &c.expires_at,
                    &c.ratio,
                    &c.visit_limit,
                    &i64::from(c.enabled),
                ],
            )
            .await?;
        }
        ChannelEdit::Remove(channel_id) => {
            execute(
                conn,
                "UPDATE channels SET deleted_at = $3
                 WHERE id = $1 AND chain_id = $2 AND deleted_at IS NULL",
                &[&channel_id.0, &chain.0, &at],
            )
            .await?;
        }
    }
    Ok(())
}

#[async_trait]
impl ChannelStore for PgStore {
    async fn channels(&self, chain: ChainId) -> StoreResult<Vec<Channel>> {
        channels_of(&self.client().await?, chain).await
    }
}

#[async_trait]
impl ChannelWrites for PgTx<'_> {
    async fn take_channel_visit(
        &mut self,
        channel: ChannelId,
        cap: VisitCap,
        limit: i64,
        day: Timestamp,
    ) -> StoreResult<Option<i64>> {
        // Each take is one conditional row update: under READ COMMITTED a concurrent take
        // waits for the row and re-checks the condition against the committed count, so no
        // two takes (on any instance) both see the last free visit. Both caps lock the
        // channel's row first, so takes never wait for each other in a cycle.
        let taken = match cap {
            VisitCap::Total => {
                one(
                    &self.tx,
                    "UPDATE channels SET visit_count = visit_count + 1
                     WHERE id = $1 AND deleted_at IS NULL AND visit_count < $2
                     RETURNING visit_count",
                    &[&channel.0, &limit],
                    first,
                )
                .await?
            }
            VisitCap::Daily => {
                let live = one(
                    &self.tx,
                    "SELECT id FROM channels WHERE id = $1 AND deleted_at IS NULL FOR UPDATE",
                    &[&channel.0],
                    first,
                )
                .await?;
                if live.is_none() {
                    return Ok(None);
                }
                one(
                    &self.tx,
                    "INSERT INTO channel_daily_visits (channel_id, day, visits)
                     SELECT $1::bigint, $2::bigint, 1::bigint WHERE $3::bigint > 0
                     ON CONFLICT (channel_id, day) DO UPDATE
                     SET visits = channel_daily_visits.visits + 1
                     WHERE channel_daily_visits.visits < $3
                     RETURNING visits",
                    &[&channel.0, &day, &limit],
                    first,
                )
                .await?
            }
        };
        let Some(used) = taken else {
            return Ok(None);
        };
        match cap {
            VisitCap::Total => {
                execute(
                    &self.tx,
                    "INSERT INTO channel_daily_visits (channel_id, day, visits) VALUES ($1, $2, 1)
                     ON CONFLICT (channel_id, day) DO UPDATE
                     SET visits = channel_daily_visits.visits + 1",
                    &[&channel.0, &day],
                )
                .await?
            }
            VisitCap::Daily => {
                execute(
                    &self.tx,
                    "UPDATE channels SET visit_count = visit_count + 1 WHERE id = $1",
                    &[&channel.0],
                )
                .await?
            }
        };
        Ok(Some(used))
    }
}
