//! The daily creation quota: how a create is counted against its owner's quota, exactly, on
//! either backend, without making one user's creates commit one at a time.
//!
//! The count of a user's creations on a day is one row. Counted inside the create's
//! transaction, that row is held until the commit: free on SQLite, whose single writer runs one
//! transaction at a time anyway, but on PostgreSQL concurrent creates of one user would then
//! commit one disk flush at a time. There a create first *reserves* its place with one
//! statement committed at once, without waiting for the disk (the create's durable commit,
//! written to the log after it, makes it durable too: [`crate::store::Store::reserve_creations`]),
//! and gives it back if the create is refused (not if it was interrupted: that one may have
//! committed). Either way the count is checked against the quota by
//! the statement that adds to it, under the row's lock, so however many instances create at
//! once, no more are created than the quota allows. A process that dies between a reservation
//! and its create leaves the day's count one higher than the chains created: a user may then
//! create one fewer, never one more.

use super::{App, BodyError};
use crate::error::{Error, Result};
use crate::model::{Timestamp, User, UserId};
use crate::store::{StoreResult, Tx};

/// How one create is counted against its owner's daily quota.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Counted {
    /// By the create's own transaction ([`Counted::count`]).
    InTransaction {
        /// The day counted in (its start).
        day: Timestamp,
        /// Seconds until the next day, which a refused create is told to wait.
        retry_after: u64,
    },
    /// Beforehand, by a reservation of its own.
    Reserved {
        /// The owner.
        user: UserId,
        /// The day counted in (its start).
        day: Timestamp,
        /// The day's count with this create.
        count: i64,
    },
}

/// The daily quota in force for `user`: their own, else the deployment's `default_quota`.
pub(super) fn quota_in_force(user: Option<&User>, default_quota: i64) -> i64 {
    user.and_then(|u| u.daily_quota).unwrap_or(default_quota)
}

/// A run of creates' room in `user`'s quota for `day` (its start), inside the run's
/// transaction: the day's counter is held by adding nothing, so the room stays the run's until
/// its commit, and concurrent creates of the user (on any instance) wait. Answers the quota in
/// force and the room left; the run then counts what it created with [`count_run`].
pub(crate) async fn hold_room(
    tx: &mut dyn Tx,
    user: UserId,
    day: Timestamp,
    default_quota: i64,
) -> StoreResult<(i64, i64)> {
    let used = tx.add_creations(user, day, 0).await?;
    let limit = quota_in_force(tx.user(user).await?.as_ref(), default_quota);
    Ok((limit, (limit - used).max(0)))
}

/// Counts the `created` creates of a run that holds its room ([`hold_room`]).
pub(crate) async fn count_run(
    tx: &mut dyn Tx,
    user: UserId,
    day: Timestamp,
    created: i64,
) -> StoreResult<()> {
    if created > 0 {
        tx.add_creations(user, day, created).await?;
    }
    Ok(())
}

impl App {
    /// Reserves the places of a batch of creates, `(owner, day, creates)` each, in one statement
    /// whatever the number of owners: each owner's answer is the day's count with theirs, or
    /// `None` when the quota has no room for all of them (the batch then counts that owner's
    /// creates one by one, [`App::count_creation`]).
    pub(crate) async fn reserve_each(
        &self,
        asks: Vec<(UserId, Timestamp, i64)>,
    ) -> StoreResult<Vec<Option<i64>>> {
        let default_quota = self.config().daily_create_quota;
        self.store()
            .reserve_creations_each(asks, default_quota)
            .await
    }

    /// The day the daily quota counts a creation at `at` in (its start), and the seconds from
    /// `at` until the next one, which a refused create is told to wait.
    pub(crate) fn quota_day(&self, at: Timestamp) -> (Timestamp, u64) {
        let calendar = &self.config().calendar;
        let day = calendar.day_start(at);
        (
            day,
            u64::try_from(calendar.next_day_start(at) - at).unwrap_or(1),
        )
    }

    /// Counts a create by `user` at `at` against the daily quota: reserves its place now where
    /// a counter held until the create's commit would serialize commits, and otherwise leaves
    /// the counting to the create's transaction ([`Counted::count`]). Whoever creates with a
    /// reservation gives it back with [`App::release_creation`] if the create fails.
    ///
    /// # Errors
    /// 429 `quota_exceeded` when the reservation finds the quota reached; store failures.
    pub(crate) async fn count_creation(&self, user: UserId, at: Timestamp) -> Result<Counted> {
        let (day, retry_after) = self.quota_day(at);
        if self.store().writes_one_at_a_time() {
            return Ok(Counted::InTransaction { day, retry_after });
        }
        let default_quota = self.config().daily_create_quota;
        match self
            .store()
            .reserve_creations(user, day, 1, default_quota)
            .await?
        {
            Some(count) => Ok(Counted::Reserved { user, day, count }),
            None => {
                let limit = quota_in_force(self.store().user(user).await?.as_ref(), default_quota);
                Err(Error::QuotaExceeded { limit, retry_after })
            }
        }
    }

    /// Gives back the place a create reserved and surely did not use (it was refused, not
    /// interrupted). A failure is logged: the day's count stays one higher, which can only
    /// refuse a create, never allow one more.
    pub(crate) async fn release_creation(&self, counted: Counted) {
        if let Counted::Reserved { user, day, .. } = counted {
            self.release_creations(user, day, 1).await;
        }
    }

    /// Gives back `n` places `user` reserved on `day` and surely did not use; as
    /// [`App::release_creation`].
    pub(crate) async fn release_creations(&self, user: UserId, day: Timestamp, n: i64) {
        let released = self
            .transact(move |tx| Box::pin(async move { tx.add_creations(user, day, -n).await }))
            .await;
        if let Err(err) = released {
            tracing::warn!(error = %err, user = user.0, "could not give back a quota reservation");
        }
    }
}

impl Counted {
    /// The day's count with this create, if it was reserved beforehand.
    pub(super) fn reserved(self) -> Option<i64> {
        match self {
            Counted::Reserved { count, .. } => Some(count),
            Counted::InTransaction { .. } => None,
        }
    }

    /// The owner's count of creations for the day with this one: counted now, inside the
    /// create's transaction, or as reserved.
    ///
    /// # Errors
    /// `quota_exceeded` (stopping the transaction) when counting finds the quota reached.
    pub(super) async fn count(
        self,
        tx: &mut dyn Tx,
        user: UserId,
        default_quota: i64,
    ) -> std::result::Result<i64, BodyError> {
        match self {
            Counted::InTransaction { day, retry_after } => {
                match tx.add_creations_within(user, day, 1, default_quota).await? {
                    Some(count) => Ok(count),
                    None => {
                        let limit = quota_in_force(tx.user(user).await?.as_ref(), default_quota);
                        Err(BodyError::Rule(Error::QuotaExceeded { limit, retry_after }))
                    }
                }
            }
            Counted::Reserved { count, .. } => Ok(count),
        }
    }
}
