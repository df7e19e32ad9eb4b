//! Channels on SQLite.

use async_trait::async_trait;
use rusqlite::{Connection, params};

use super::{SqliteStore, SqliteTx, all, first, one};
use crate::model::{ChainId, Channel, ChannelId, Timestamp, VisitCap};
use crate::store::channels::{CHANNELS_OF, INSERT_CHANNEL, channel_from_row};
use crate::store::{ChannelEdit, ChannelInput, ChannelStore, ChannelWrites, StoreResult};

pub(super) fn channels_of(c: &Connection, chain: ChainId) -> StoreResult<Vec<Channel>> {
    all(c, &CHANNELS_OF, [chain.0], channel_from_row)
}

pub(super) fn insert_channel(
    conn: &Connection,
    chain: ChainId,
    c: &ChannelInput,
    at: Timestamp,
) -> StoreResult<()> {
    conn.prepare_cached(INSERT_CHANNEL)?.execute(params![
        chain.0,
        c.sort,
        c.name,
        c.url,
        c.url2,
        c.expires_at,
        c.ratio,
        c.visit_limit,
        i64::from(c.enabled),
        at
    ])?;
    Ok(())
}

/// Applies one change to a chain's channel list.
pub(super) fn apply_channel_edit(
    conn: &Connection,
    chain: ChainId,
    edit: &ChannelEdit,
    at: Timestamp,
) -> StoreResult<()> {
    match edit {
        ChannelEdit::Add(channel) => insert_channel(conn, chain, channel, at)?,
        ChannelEdit::Change(channel_id, c) => {
            conn.execute(
                "UPDATE channels SET sort = ?3, qrcode_name = ?4, url = ?5,
                    url2 = ?6, qrcode_time = ?7, ratio = ?8, visit_limit = ?9,
                    status = ?10
                 WHERE id = ?1 AND chain_id = ?2 AND deleted_at IS NULL",
                params![
                    channel_id.0,
                    chain.0,
                    c.sort,
                    c.name,
                    c.url,
                    c.url2,
                    c.expires_at,
                    c.ratio,
                    c.visit_limit,
                    i64::from(c.enabled)
                ],
            )?;
        }
        ChannelEdit::Remove(channel_id) => {
            conn.execute(
                "UPDATE channels SET deleted_at = ?3
                 WHERE id = ?1 AND chain_id = ?2 AND deleted_at IS NULL",
                params![channel_id.0, chain.0, at],
            )?;
        }
    }
    Ok(())
}

/// Adds `visits` to a channel's total and its count for the day.
pub(super) fn count_channel_visits(
    conn: &Connection,
    channel: ChannelId,
    day: Timestamp,
    visits: i64,
) -> StoreResult<()> {
    conn.prepare_cached("UPDATE channels SET visit_count = visit_count + ?2 WHERE id = ?1")?
        .execute(params![channel.0, visits])?;
    conn.prepare_cached(
        "INSERT INTO channel_daily_visits (channel_id, day, visits) VALUES (?1, ?2, ?3)
         ON CONFLICT (channel_id, day) DO UPDATE SET visits = visits + excluded.visits",
    )?
    .execute(params![channel.0, day, visits])?;
    Ok(())
}

#[async_trait]
impl ChannelStore for SqliteStore {
    async fn channels(&self, chain: ChainId) -> StoreResult<Vec<Channel>> {
        self.read(move |c| channels_of(c, chain)).await
    }
}

#[async_trait]
impl ChannelWrites for SqliteTx<'_> {
    async fn take_channel_visit(
        &mut self,
        channel: ChannelId,
        cap: VisitCap,
        limit: i64,
        day: Timestamp,
    ) -> StoreResult<Option<i64>> {
        // The writer thread runs one transaction at a time, so read-then-write is exact here.
        let used = match cap {
            VisitCap::Total => one(
                self.conn,
                "SELECT visit_count FROM channels WHERE id = ?1 AND deleted_at IS NULL",
                [channel.0],
                first,
            )?,
            VisitCap::Daily => one(
                self.conn,
                "SELECT coalesce((SELECT visits FROM channel_daily_visits
                                  WHERE channel_id = ?1 AND day = ?2), 0)
                 FROM channels WHERE id = ?1 AND deleted_at IS NULL",
                [channel.0, day],
                first,
            )?,
        };
        match used {
            Some(used) if used < limit => {
                count_channel_visits(self.conn, channel, day, 1)?;
                Ok(Some(used + 1))
            }
            _ => Ok(None),
        }
    }
}
