//! Administration: users, keys and domains. Callers hold scope `admin`.

use super::quota::quota_in_force;
use super::{App, BodyError, Principal, conflict_as, normalize_host};
use crate::error::{Error, Result, names};
use crate::model::limits::MAX_NAME_CHARS;
use crate::model::{
    ApiKeyRecord, Domain, DomainId, DomainStatus, KeyId, Scheme, Scope, User, UserId, UserUsage,
};
use crate::store::{Invalidation, NewDomain, NewUser, Unique};

/// A user as an administrator sees them (`GET /admin/users/{id}`).
#[derive(Debug, Clone)]
pub struct UserOverview {
    /// The user.
    pub user: User,
    /// What they have and use.
    pub usage: UserUsage,
    /// The daily creation quota in force: the user's own, else the server's.
    pub daily_quota: i64,
}

/// What an administrator changes of a user; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct UserEdit {
    /// A new name.
    pub name: Option<String>,
    /// A new daily quota; `Some(None)` returns the user to the server's default.
    pub daily_quota: Option<Option<i64>>,
    /// Suspends (`true`) or resumes (`false`) the user.
    pub suspended: Option<bool>,
    /// Whether a suspended user's chains stop redirecting (they answer 404).
    pub suspend_redirects: Option<bool>,
}

fn check_name(field: &str, name: &str, allow_empty: bool) -> Result<String> {
    super::check_text(
        field,
        name,
        super::TextRule {
            max: MAX_NAME_CHARS,
            required: !allow_empty,
            lines: false,
            code: names::INVALID_NAME,
        },
    )
}

impl App {
    /// Creates a user.
    ///
    /// # Errors
    /// 400 for a bad name or a negative quota; 409 when the name is taken.
    pub async fn create_user(&self, name: &str, daily_quota: Option<i64>) -> Result<User> {
        let name = check_name("name", name, false)?;
        if daily_quota.is_some_and(|q| q < 0) {
            return Err(Error::bad_request(
                names::INVALID_QUOTA,
                "daily_quota must not be negative",
            ));
        }
        let new = NewUser {
            name: name.clone(),
            daily_quota,
            created_at: self.now(),
        };
        self.transact(move |tx| {
            let new = new.clone();
            Box::pin(async move { tx.insert_user(new).await })
        })
        .await
        .map_err(|e| {
            conflict_as(
                e,
                Unique::UserName,
                names::USER_EXISTS,
                format!("a user named {name:?} exists"),
            )
        })
    }

    /// Every user, oldest first.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn users(&self) -> Result<Vec<User>> {
        Ok(self.store().users().await?)
    }

    /// A user, what they have and use, and the daily quota in force for them.
    ///
    /// # Errors
    /// 404 for an unknown user.
    pub async fn user_overview(&self, id: UserId) -> Result<UserOverview> {
        let user = self
            .store()
            .user(id)
            .await?
            .ok_or(Error::NotFound("user"))?;
        let now = self.now();
        let today = self.config().calendar.day_start(now);
        let usage = self.store().user_usage(id, today, now).await?;
        let daily_quota = quota_in_force(Some(&user), self.config().daily_create_quota);
        Ok(UserOverview {
            user,
            usage,
            daily_quota,
        })
    }

    /// Changes a user's name, quota or suspension. Suspending refuses the user's keys on every
    /// instance before this returns; their chains go on redirecting unless `suspend_redirects`.
    /// Resuming restores both.
    ///
    /// # Errors
    /// 400 for a bad name or a negative quota; 404 for an unknown user; 409 when the name is
    /// taken; 422 for stopping the redirects of a user who is not suspended, or suspending the
    /// caller's own user (which would lock the caller out).
    pub async fn edit_user(&self, who: &Principal, id: UserId, edit: UserEdit) -> Result<User> {
        let name = edit
            .name
            .as_deref()
            .map(|n| check_name("name", n, false))
            .transpose()?;
        if edit.daily_quota.flatten().is_some_and(|q| q < 0) {
            return Err(Error::bad_request(
                names::INVALID_QUOTA,
                "daily_quota must not be negative",
            ));
        }
        if edit.suspended == Some(true) && who.user_id == id {
            return Err(Error::unprocessable(
                names::INVALID_SUSPENSION,
                "a key cannot suspend its own user",
            ));
        }
        let now = self.now();
        let edited = self
            .transact_checked(move |tx| {
                let (name, edit) = (name.clone(), edit.clone());
                Box::pin(async move {
                    let mut user = tx
                        .user(id)
                        .await?
                        .ok_or(BodyError::Rule(Error::NotFound("user")))?;
                    let before = (user.suspended_at.is_some(), user.redirects_suspended);
                    if let Some(name) = name {
                        user.name = name;
                    }
                    if let Some(quota) = edit.daily_quota {
                        user.daily_quota = quota;
                    }
                    match edit.suspended {
                        Some(true) if user.suspended_at.is_none() => user.suspended_at = Some(now),
                        Some(false) => {
                            user.suspended_at = None;
                            user.redirects_suspended = false;
                        }
                        _ => {}
                    }
                    if let Some(stop) = edit.suspend_redirects {
                        if stop && user.suspended_at.is_none() {
                            return Err(BodyError::Rule(Error::unprocessable(
                                names::INVALID_SUSPENSION,
                                "suspend_redirects applies to a suspended user: \
                                 send suspended: true with it",
                            )));
                        }
                        user.redirects_suspended = stop;
                    }
                    tx.update_user(&user).await?;
                    if (user.suspended_at.is_some(), user.redirects_suspended) != before {
                        tx.publish(Invalidation::Users).await?;
                    }
                    Ok(user)
                })
            })
            .await;
        match edited {
            Ok(user) => Ok(user),
            Err(BodyError::Rule(e)) => Err(e),
            Err(BodyError::Store(e)) => Err(conflict_as(
                e,
                Unique::UserName,
                names::USER_EXISTS,
                "a user with that name exists".to_owned(),
            )),
        }
    }

    /// Creates a key for a user; returns the record and the secret, which is never shown again.
    ///
    /// # Errors
    /// 400 for an unknown scope or no scopes; 422 for an unknown user or an expiry in the past.
    pub async fn create_key(
        &self,
        user_id: UserId,
        scopes: &[String],
        name: Option<&str>,
        expires_at: Option<i64>,
    ) -> Result<(ApiKeyRecord, String)> {
        if self.store().user(user_id).await?.is_none() {
            return Err(Error::unprocessable(
                names::INVALID_USER,
                format!("no user {user_id}"),
            ));
        }
        if scopes.is_empty() {
            return Err(Error::bad_request(
                names::INVALID_SCOPE,
                "give at least one scope",
            ));
        }
        let mut parsed: Vec<Scope> = Vec::with_capacity(scopes.len());
        for s in scopes {
            let scope = s
                .parse::<Scope>()
                .map_err(|e| Error::bad_request(names::INVALID_SCOPE, e.to_string()))?;
            if !parsed.contains(&scope) {
                parsed.push(scope);
            }
        }
        if expires_at.is_some_and(|t| t > crate::clock::LATEST) {
            return Err(Error::bad_request(
                names::INVALID_EXPIRY_MALFORMED,
                "expires_at must be before the year 10000",
            ));
        }
        if expires_at.is_some_and(|t| t <= self.now()) {
            return Err(Error::unprocessable(
                names::INVALID_EXPIRY,
                "expires_at must be in the future",
            ));
        }
        let name = check_name("name", name.unwrap_or_default(), true)?;
        self.issue_key(user_id, name, parsed, expires_at).await
    }

    /// Keys, all or one user's; never their secrets.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn keys(&self, user: Option<UserId>) -> Result<Vec<ApiKeyRecord>> {
        Ok(self.store().keys(user).await?)
    }

    /// Revokes a key at once; revoking a revoked key changes nothing.
    ///
    /// # Errors
    /// 404 for an unknown key.
    pub async fn revoke_key(&self, id: KeyId) -> Result<ApiKeyRecord> {
        let at = self.now();
        self.transact(move |tx| {
            Box::pin(async move {
                let key = tx.revoke_key(id, at).await?;
                tx.publish(Invalidation::Keys).await?;
                Ok(key)
            })
        })
        .await?
        .ok_or(Error::NotFound("key"))
    }

    /// Registers a domain. A private domain belongs to `owner`, or to the caller.
    ///
    /// # Errors
    /// 400 for a bad host or scheme; 422 for an unknown owner or an owner of a shared domain;
    /// 409 when the host is registered.
    pub async fn create_domain(
        &self,
        who: &Principal,
        host: &str,
        scheme: &str,
        scene: Option<&str>,
        shared: bool,
        owner: Option<UserId>,
    ) -> Result<Domain> {
        let host = normalize_host(host).ok_or_else(|| {
            Error::bad_request(
                names::INVALID_DOMAIN_MALFORMED,
                format!("{host:?} is not a host name"),
            )
        })?;
        let scheme = Scheme::parse(scheme).ok_or_else(|| {
            Error::bad_request(names::INVALID_SCHEME, "scheme must be http or https")
        })?;
        let user_id = match (shared, owner) {
            (true, Some(_)) => {
                return Err(Error::unprocessable(
                    names::INVALID_OWNER,
                    "a shared domain has no owner",
                ));
            }
            (true, None) => None,
            (false, Some(owner)) => {
                if self.store().user(owner).await?.is_none() {
                    return Err(Error::unprocessable(
                        names::INVALID_USER,
                        format!("no user {owner}"),
                    ));
                }
                Some(owner)
            }
            (false, None) => Some(who.user_id),
        };
        let scene = check_name("scene", scene.unwrap_or_default(), true)?;
        let new = NewDomain {
            host: host.clone(),
            scheme,
            scene,
            shared,
            user_id,
            status: DomainStatus::Effective,
            created_at: self.now(),
        };
        self.transact(move |tx| {
            let new = new.clone();
            Box::pin(async move {
                let domain = tx.insert_domain(new).await?;
                tx.publish(Invalidation::Domains).await?;
                Ok(domain)
            })
        })
        .await
        .map_err(|e| {
            conflict_as(
                e,
                Unique::DomainHost,
                names::DOMAIN_EXISTS,
                format!("{host} is already registered"),
            )
        })
    }

    /// Every domain, oldest first.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn all_domains(&self) -> Result<Vec<Domain>> {
        Ok(self.store().domains().await?)
    }

    /// Sets a domain effective (1) or not (99). Its chains follow at once.
    ///
    /// # Errors
    /// 400 for another status; 404 for an unknown domain.
    pub async fn set_domain_status(&self, id: DomainId, status: i64) -> Result<Domain> {
        let status = DomainStatus::from_code(status)
            .ok_or_else(|| Error::bad_request(names::INVALID_STATUS, "status must be 1 or 99"))?;
        self.transact(move |tx| {
            Box::pin(async move {
                let domain = tx.set_domain_status(id, status).await?;
                tx.publish(Invalidation::Domains).await?;
                Ok(domain)
            })
        })
        .await?
        .ok_or(Error::NotFound("domain"))
    }
}
