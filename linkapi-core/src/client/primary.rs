//! The primary surface: short chains, messaging-app chains (`/wx-chains`), card lists, groups,
//! domains, templates, uploads, and the server's own operations (health, metrics, the API
//! document).

use super::{Client, ClientError, op};
use crate::model::Dimension;
use crate::wire::primary;

impl Client {
    /// `POST /chains`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_chain(
        &self,
        input: &primary::CreateChain,
    ) -> Result<primary::Chain, ClientError> {
        self.with_body(op::CHAINS_CREATE, "/chains", input).await
    }

    /// `POST /chains/bulk`: up to 10,000 chains, each created or refused on its own; one
    /// result per item, in order.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`]. Refused items are results, not errors.
    pub async fn create_chains(
        &self,
        input: &primary::BulkCreateChains,
    ) -> Result<primary::BulkCreated, ClientError> {
        self.with_body(op::CHAINS_CREATE_BULK, "/chains/bulk", input)
            .await
    }

    /// `POST /chains/import`: up to 10,000 chains with their own codes, times and visit
    /// totals, each imported or reported on its own (`dry_run`: reported only).
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`]. Items not imported are results, not errors.
    pub async fn import_chains(
        &self,
        input: &primary::ImportChains,
        dry_run: bool,
    ) -> Result<primary::ImportAnswer, ClientError> {
        let path = if dry_run {
            "/chains/import?dry_run=true"
        } else {
            "/chains/import"
        };
        self.with_body(op::CHAINS_IMPORT, path, input).await
    }

    /// `GET /chains`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn list_chains(
        &self,
        query: &primary::ListChains,
    ) -> Result<primary::ChainPage, ClientError> {
        let query = serde_urlencoded::to_string(query).map_err(|e| ClientError::Decode {
            url: self.base.to_string(),
            detail: e.to_string(),
        })?;
        let path = if query.is_empty() {
            "/chains".to_owned()
        } else {
            format!("/chains?{query}")
        };
        self.get(op::CHAINS_LIST, &path).await
    }

    /// `GET /chains/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn chain(&self, id: i64) -> Result<primary::Chain, ClientError> {
        self.get(op::CHAINS_GET, &format!("/chains/{id}")).await
    }

    /// `GET /chains/{id}/conversions`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn conversions(
        &self,
        id: i64,
        query: &primary::ListConversions,
    ) -> Result<primary::ConversionPage, ClientError> {
        let query = serde_urlencoded::to_string(query).map_err(|e| ClientError::Decode {
            url: self.base.to_string(),
            detail: e.to_string(),
        })?;
        self.get(
            op::CHAINS_CONVERSIONS,
            &format!("/chains/{id}/conversions?{query}"),
        )
        .await
    }

    /// `GET /chains/{id}/stats?days=N` (`days` 1 to 365; the server's default, 7, when
    /// `None`).
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn chain_stats(
        &self,
        id: i64,
        days: Option<i64>,
    ) -> Result<primary::ChainStats, ClientError> {
        let path = match days {
            Some(days) => format!("/chains/{id}/stats?days={days}"),
            None => format!("/chains/{id}/stats"),
        };
        self.get(op::CHAINS_STATS, &path).await
    }

    /// `GET /chains/{id}/stats/{dimension}`: the chain's visits per value of `dimension`.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn chain_breakdown(
        &self,
        id: i64,
        dimension: Dimension,
        query: &primary::TopQuery,
    ) -> Result<primary::ChainBreakdown, ClientError> {
        let op = match dimension {
            Dimension::Referrers => op::CHAINS_STATS_REFERRERS,
            Dimension::Devices => op::CHAINS_STATS_DEVICES,
            Dimension::Os => op::CHAINS_STATS_OS,
            Dimension::Browsers => op::CHAINS_STATS_BROWSERS,
            Dimension::Countries => op::CHAINS_STATS_COUNTRIES,
            Dimension::Languages => op::CHAINS_STATS_LANGUAGES,
            Dimension::Rules => op::CHAINS_STATS_RULES,
        };
        let path = format!(
            "/chains/{id}/stats/{}{}",
            dimension.name(),
            self.query_string(query)?
        );
        self.get(op, &path).await
    }

    /// `GET /stats`: the caller's visits over a window of days and their chains with the
    /// most.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn user_stats(
        &self,
        query: &primary::TopQuery,
    ) -> Result<primary::UserStats, ClientError> {
        let path = format!("/stats{}", self.query_string(query)?);
        self.get(op::STATS, &path).await
    }

    /// `GET /chains/{id}/qr`: a QR code of the chain's link, `format` `png` or `svg`, about
    /// `size` pixels wide; the image's bytes.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn chain_qr(
        &self,
        id: i64,
        format: &str,
        size: Option<u32>,
    ) -> Result<Vec<u8>, ClientError> {
        let query = serde_urlencoded::to_string(primary::QrQuery {
            format: Some(format.to_owned()),
            size,
        })
        .unwrap_or_default();
        let (request, url) = self.request(op::CHAINS_QR, &format!("/chains/{id}/qr?{query}"));
        Ok(self.fetch(request, &url).await?.to_vec())
    }

    /// `GET /chains/export`: every short chain of the caller, one a line in `format`, written
    /// into `out` as the server streams it; the bytes written.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`]. Cut short on the way, it is an error, and
    /// `out` holds what came before.
    pub async fn export_chains(
        &self,
        format: primary::ExportFormat,
        out: &mut (dyn std::io::Write + Send),
    ) -> Result<u64, ClientError> {
        let query = self.query_string(&primary::ExportQuery {
            format: Some(format),
        })?;
        let path = format!("/chains/export{query}");
        let (request, url) = self.request(op::CHAINS_EXPORT, &path);
        self.download(request, &url, out).await
    }

    /// `PATCH /chains/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn update_chain(
        &self,
        id: i64,
        input: &primary::UpdateChain,
    ) -> Result<primary::Chain, ClientError> {
        self.with_body(op::CHAINS_UPDATE, &format!("/chains/{id}"), input)
            .await
    }

    /// `DELETE /chains/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn delete_chain(&self, id: i64) -> Result<primary::DeletedChain, ClientError> {
        let (request, url) = self.request(op::CHAINS_DELETE, &format!("/chains/{id}"));
        self.send(op::CHAINS_DELETE, request, url).await
    }

    /// `POST /chains/{id}/archive`: archives the chain (`archived`) or, with `DELETE`, brings
    /// it back.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn archive_chain(
        &self,
        id: i64,
        archived: bool,
    ) -> Result<primary::Chain, ClientError> {
        let op = if archived {
            op::CHAINS_ARCHIVE
        } else {
            op::CHAINS_UNARCHIVE
        };
        let (request, url) = self.request(op, &format!("/chains/{id}/archive"));
        self.send(op, request, url).await
    }

    /// `POST /uploads`: streams `body` (`length` bytes) as the part `file`, named
    /// `file_name`. The server decides the type by the bytes.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn upload(
        &self,
        file_name: &str,
        body: reqwest::Body,
        length: u64,
    ) -> Result<primary::Upload, ClientError> {
        let part = reqwest::multipart::Part::stream_with_length(body, length)
            .file_name(file_name.to_owned());
        let form = reqwest::multipart::Form::new().part("file", part);
        let (request, url) = self.request(op::UPLOADS_CREATE, "/uploads");
        self.send(op::UPLOADS_CREATE, request.multipart(form), url)
            .await
    }

    /// `GET /uploads?page=&page_size=`: the caller's uploads, newest first.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn uploads(
        &self,
        page: Option<i64>,
        page_size: Option<i64>,
    ) -> Result<primary::UploadPage, ClientError> {
        let query = serde_urlencoded::to_string(primary::ListUploads { page, page_size })
            .unwrap_or_default();
        let path = if query.is_empty() {
            "/uploads".to_owned()
        } else {
            format!("/uploads?{query}")
        };
        self.get(op::UPLOADS_LIST, &path).await
    }

    /// `DELETE /uploads/{file_id}`: answers the upload as it was.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn delete_upload(&self, file_id: i64) -> Result<primary::Upload, ClientError> {
        let (request, url) = self.request(op::UPLOADS_DELETE, &format!("/uploads/{file_id}"));
        self.send(op::UPLOADS_DELETE, request, url).await
    }

    /// `POST /groups`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_group(
        &self,
        input: &primary::CreateGroup,
    ) -> Result<primary::Group, ClientError> {
        self.with_body(op::GROUPS_CREATE, "/groups", input).await
    }

    /// `GET /groups`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn groups(&self) -> Result<Vec<primary::Group>, ClientError> {
        self.get(op::GROUPS_LIST, "/groups").await
    }

    /// `GET /groups/{id}`
    ///
    /// # Errors
    /// As the server answers (404 `not_found` for a group that is not the caller's); see
    /// [`ClientError`].
    pub async fn group(&self, id: i64) -> Result<primary::Group, ClientError> {
        self.get(op::GROUPS_GET, &format!("/groups/{id}")).await
    }

    /// `GET /domains`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn domains(&self) -> Result<Vec<primary::Domain>, ClientError> {
        self.get(op::DOMAINS_LIST, "/domains").await
    }

    /// `GET /templates?page=&page_size=`: the templates offered to the caller.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn templates(
        &self,
        page: Option<i64>,
        page_size: Option<i64>,
    ) -> Result<primary::TemplatePage, ClientError> {
        let query = serde_urlencoded::to_string(primary::ListTemplates { page, page_size })
            .unwrap_or_default();
        self.get(op::TEMPLATES_LIST, &format!("/templates?{query}"))
            .await
    }

    /// `POST /wx-chains`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_wx_chain(
        &self,
        input: &primary::NewWxChain,
    ) -> Result<primary::CreatedWxChain, ClientError> {
        self.with_body(op::WX_CHAINS_CREATE, "/wx-chains", input)
            .await
    }

    /// `GET /wx-chains?chain_type=&page=&page_size=&group_id=&q=`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn list_wx_chains(
        &self,
        query: &primary::ListWxChains,
    ) -> Result<primary::WxChainPage, ClientError> {
        let query = serde_urlencoded::to_string(query).unwrap_or_default();
        self.get(op::WX_CHAINS_LIST, &format!("/wx-chains?{query}"))
            .await
    }

    /// `GET /wx-chains/{id}`, with its channels.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn wx_chain(&self, id: i64) -> Result<primary::WxChain, ClientError> {
        self.get(op::WX_CHAINS_GET, &format!("/wx-chains/{id}"))
            .await
    }

    /// `PATCH /wx-chains/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn update_wx_chain(
        &self,
        id: i64,
        input: &primary::WxChainInput,
    ) -> Result<primary::WxChain, ClientError> {
        self.with_body(op::WX_CHAINS_UPDATE, &format!("/wx-chains/{id}"), input)
            .await
    }

    /// `DELETE /wx-chains/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn delete_wx_chain(&self, id: i64) -> Result<primary::DeletedChain, ClientError> {
        let (request, url) = self.request(op::WX_CHAINS_DELETE, &format!("/wx-chains/{id}"));
        self.send(op::WX_CHAINS_DELETE, request, url).await
    }

    /// `GET /card`: up to 100 card chains, newest first.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn cards(&self) -> Result<primary::CardList, ClientError> {
        self.get(op::CARD_LIST, "/card").await
    }

    /// `GET /wx-chains/{id}/qr`: a QR code of the chain's link, as [`Client::chain_qr`].
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn wx_chain_qr(
        &self,
        id: i64,
        format: &str,
        size: Option<u32>,
    ) -> Result<Vec<u8>, ClientError> {
        let query = self.query_string(&primary::QrQuery {
            format: Some(format.to_owned()),
            size,
        })?;
        let (request, url) = self.request(op::WX_CHAINS_QR, &format!("/wx-chains/{id}/qr{query}"));
        Ok(self.fetch(request, &url).await?.to_vec())
    }

    /// `GET /healthz`: whether the process answers.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn health(&self) -> Result<primary::Health, ClientError> {
        self.get(op::HEALTHZ, "/healthz").await
    }

    /// `GET /readyz`: whether the server and its store answer (503 when the store does not).
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn ready(&self) -> Result<primary::Health, ClientError> {
        self.get(op::READYZ, "/readyz").await
    }

    /// `GET /metrics`: the Prometheus text (an admin key's call where the server serves it
    /// to admins).
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn metrics(&self) -> Result<String, ClientError> {
        let (request, url) = self.request(op::METRICS, "/metrics");
        let bytes = self.fetch(request, &url).await?;
        String::from_utf8(bytes.to_vec()).map_err(|e| ClientError::Decode {
            url,
            detail: e.to_string(),
        })
    }

    /// `GET /openapi.json`: the OpenAPI 3.1 document of every operation.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn openapi(&self) -> Result<serde_json::Value, ClientError> {
        let (request, url) = self.request(op::OPENAPI, "/openapi.json");
        let bytes = self.fetch(request, &url).await?;
        serde_json::from_slice(&bytes).map_err(|e| ClientError::Decode {
            url,
            detail: e.to_string(),
        })
    }
}
