//! Administration (`/admin/...`, admin keys only): users, keys, domains, templates, the
//! visitor secret and work-chat data.

use super::{Client, ClientError, op};
use crate::wire::admin;

impl Client {
    /// `POST /admin/users`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_user(&self, input: &admin::CreateUser) -> Result<admin::User, ClientError> {
        self.with_body(op::ADMIN_USERS_CREATE, "/admin/users", input)
            .await
    }

    /// `GET /admin/users`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn users(&self) -> Result<Vec<admin::User>, ClientError> {
        self.get(op::ADMIN_USERS_LIST, "/admin/users").await
    }

    /// `GET /admin/users/{id}`: the user and their usage.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn user(&self, id: i64) -> Result<admin::UserDetail, ClientError> {
        self.get(op::ADMIN_USERS_GET, &format!("/admin/users/{id}"))
            .await
    }

    /// `PATCH /admin/users/{id}`: name, quota, suspension.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn edit_user(
        &self,
        id: i64,
        input: &admin::EditUser,
    ) -> Result<admin::User, ClientError> {
        self.with_body(op::ADMIN_USERS_EDIT, &format!("/admin/users/{id}"), input)
            .await
    }

    /// `POST /admin/keys`: the answer holds the secret, shown this once.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_key(
        &self,
        input: &admin::CreateKey,
    ) -> Result<admin::CreatedKey, ClientError> {
        self.with_body(op::ADMIN_KEYS_CREATE, "/admin/keys", input)
            .await
    }

    /// `GET /admin/orphan-visits`: requests of the domains that reached no chain over the
    /// last `days` days (the server's default, 7, when `None`).
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn orphan_visits(
        &self,
        days: Option<i64>,
    ) -> Result<admin::OrphanVisits, ClientError> {
        let path = match days {
            Some(days) => format!("/admin/orphan-visits?days={days}"),
            None => "/admin/orphan-visits".to_owned(),
        };
        self.get(op::ADMIN_ORPHAN_VISITS, &path).await
    }

    /// `GET /admin/keys`, all or one user's.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn keys(&self, user_id: Option<i64>) -> Result<Vec<admin::Key>, ClientError> {
        match user_id {
            Some(user) => {
                self.get(op::ADMIN_KEYS_LIST, &format!("/admin/keys?user_id={user}"))
                    .await
            }
            None => self.get(op::ADMIN_KEYS_LIST, "/admin/keys").await,
        }
    }

    /// `DELETE /admin/keys/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn revoke_key(&self, id: i64) -> Result<admin::Key, ClientError> {
        let (request, url) = self.request(op::ADMIN_KEYS_REVOKE, &format!("/admin/keys/{id}"));
        self.send(op::ADMIN_KEYS_REVOKE, request, url).await
    }

    /// `POST /admin/visitor-secret`: visitors are keyed with a new secret from now on.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn rotate_visitor_secret(&self) -> Result<admin::VisitorSecretRotated, ClientError> {
        let (request, url) = self.request(op::ADMIN_VISITOR_SECRET_ROTATE, "/admin/visitor-secret");
        self.send(op::ADMIN_VISITOR_SECRET_ROTATE, request, url)
            .await
    }

    /// `POST /admin/domains`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_domain(
        &self,
        input: &admin::CreateDomain,
    ) -> Result<admin::Domain, ClientError> {
        self.with_body(op::ADMIN_DOMAINS_CREATE, "/admin/domains", input)
            .await
    }

    /// `GET /admin/domains`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn admin_domains(&self) -> Result<Vec<admin::Domain>, ClientError> {
        self.get(op::ADMIN_DOMAINS_LIST, "/admin/domains").await
    }

    /// `PATCH /admin/domains/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn set_domain_status(
        &self,
        id: i64,
        status: i64,
    ) -> Result<admin::Domain, ClientError> {
        self.with_body(
            op::ADMIN_DOMAINS_UPDATE,
            &format!("/admin/domains/{id}"),
            &admin::UpdateDomain { status },
        )
        .await
    }

    /// `POST /admin/templates`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_template(
        &self,
        input: &admin::CreateTemplate,
    ) -> Result<admin::Template, ClientError> {
        self.with_body(op::ADMIN_TEMPLATES_CREATE, "/admin/templates", input)
            .await
    }

    /// `GET /admin/templates`: every template, retired ones included (the first 100).
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn admin_templates(&self) -> Result<Vec<admin::Template>, ClientError> {
        self.get(op::ADMIN_TEMPLATES_LIST, "/admin/templates?page_size=100")
            .await
    }

    /// `PATCH /admin/templates/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn update_template(
        &self,
        id: i64,
        input: &admin::UpdateTemplate,
    ) -> Result<admin::Template, ClientError> {
        self.with_body(
            op::ADMIN_TEMPLATES_UPDATE,
            &format!("/admin/templates/{id}"),
            input,
        )
        .await
    }

    /// `DELETE /admin/templates/{id}`: retires it.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn retire_template(&self, id: i64) -> Result<admin::Template, ClientError> {
        let (request, url) = self.request(
            op::ADMIN_TEMPLATES_RETIRE,
            &format!("/admin/templates/{id}"),
        );
        self.send(op::ADMIN_TEMPLATES_RETIRE, request, url).await
    }

    /// `POST /admin/workchat/assemblies`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn put_assembly(
        &self,
        input: &admin::PutAssembly,
    ) -> Result<admin::Assembly, ClientError> {
        self.with_body(
            op::ADMIN_WORKCHAT_ASSEMBLIES_PUT,
            "/admin/workchat/assemblies",
            input,
        )
        .await
    }

    /// `GET /admin/workchat/assemblies?user_id=`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn admin_assemblies(
        &self,
        query: &admin::ListAssemblies,
    ) -> Result<admin::AssemblyPage, ClientError> {
        let query = serde_urlencoded::to_string(query).unwrap_or_default();
        self.get(
            op::ADMIN_WORKCHAT_ASSEMBLIES_LIST,
            &format!("/admin/workchat/assemblies?{query}"),
        )
        .await
    }

    /// `POST /admin/workchat/transfers`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn load_transfers(
        &self,
        input: &admin::LoadTransfers,
    ) -> Result<admin::LoadedTransfers, ClientError> {
        self.with_body(
            op::ADMIN_WORKCHAT_TRANSFERS_LOAD,
            "/admin/workchat/transfers",
            input,
        )
        .await
    }

    /// `GET /admin/templates/{id}/preview`: the template rendered with sample values, as the
    /// HTML a visitor would get.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn template_preview(
        &self,
        id: i64,
        query: &admin::PreviewTemplate,
    ) -> Result<String, ClientError> {
        let query = self.query_string(query)?;
        let (request, url) = self.request(
            op::ADMIN_TEMPLATES_PREVIEW,
            &format!("/admin/templates/{id}/preview{query}"),
        );
        let bytes = self.fetch(request, &url).await?;
        String::from_utf8(bytes.to_vec()).map_err(|e| ClientError::Decode {
            url,
            detail: e.to_string(),
        })
    }
}
