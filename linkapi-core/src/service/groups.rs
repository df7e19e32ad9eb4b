//! Groups of chains.

use super::engine::idempotency::{self, Receipt};
use super::{App, BodyError, Principal, conflict_as};
use crate::error::{Error, Result, names};
use crate::model::limits::MAX_NAME_CHARS;
use crate::model::{ChainKind, Group, GroupId};
use crate::store::{NewGroup, Unique};

impl App {
    /// Creates a group; `chain_type` 0 is taken as 1.
    ///
    /// # Errors
    /// 400 for an empty or long name or an unknown chain type; 409 when the caller already has
    /// a group of that name.
    pub async fn create_group(
        &self,
        who: &Principal,
        name: &str,
        chain_type: i64,
        receipt: Option<&Receipt<Group>>,
    ) -> Result<Group> {
        let name = super::check_text(
            "name",
            name,
            super::TextRule {
                max: MAX_NAME_CHARS,
                required: true,
                lines: false,
                code: names::INVALID_NAME,
            },
        )?;
        let chain_type = ChainKind::from_code(chain_type).ok_or_else(|| {
            Error::bad_request(
                names::INVALID_CHAIN_TYPE,
                format!("chain_type {chain_type} is not 1, 2, 3 or 4"),
            )
        })?;
        let new = NewGroup {
            user_id: who.user_id,
            name: name.clone(),
            chain_type,
            created_at: self.now(),
        };
        let receipt = receipt.cloned();
        let now = new.created_at;
        self.transact_checked(move |tx| {
            let new = new.clone();
            let receipt = receipt.clone();
            Box::pin(async move {
                idempotency::claim(receipt.as_ref(), tx, now).await?;
                let group = tx.insert_group(new).await?;
                idempotency::record(receipt.as_ref(), tx, &group).await?;
                Ok(group)
            })
        })
        .await
        .map_err(|e| match e {
            BodyError::Rule(e) => e,
            BodyError::Store(e) => conflict_as(
                e,
                Unique::GroupName,
                names::GROUP_EXISTS,
                format!("you already have a group named {name:?}"),
            ),
        })
    }

    /// The caller's groups, oldest first.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn groups(&self, who: &Principal) -> Result<Vec<Group>> {
        Ok(self.store().groups(who.user_id).await?)
    }

    /// One of the caller's groups.
    ///
    /// # Errors
    /// 404 when the caller has no such group; when the store fails.
    pub async fn group(&self, who: &Principal, id: GroupId) -> Result<Group> {
        self.store()
            .group(who.user_id, id)
            .await?
            .ok_or(Error::NotFound("group"))
    }

    /// The caller's groups holding chains of `chain_type` (0 is 1), or all when `None`,
    /// oldest first.
    ///
    /// # Errors
    /// 400 for a chain type that is none; when the store fails.
    pub async fn groups_of_type(
        &self,
        who: &Principal,
        chain_type: Option<i64>,
    ) -> Result<Vec<Group>> {
        let kind = chain_type
            .map(|code| {
                ChainKind::from_code(code).ok_or_else(|| {
                    Error::bad_request(names::INVALID_CHAIN_TYPE, "chain_type must be 0 to 4")
                })
            })
            .transpose()?;
        let mut groups = self.groups(who).await?;
        if let Some(kind) = kind {
            groups.retain(|g| g.chain_type == kind);
        }
        Ok(groups)
    }
}
