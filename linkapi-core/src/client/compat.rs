//! The compatibility surface (`/openapi/v1/...`, the card creation and the ad-conversion
//! report): the spec's actions, their bodies and their envelopes as the spec has them.

use super::{Client, ClientError, op};
use crate::wire::compat;

impl Client {
    /// `POST /openapi/v1/adcallback/{ad_platform_name}/conversions`: `result.duplicate` says
    /// whether the report repeated one already recorded.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn report_conversion(
        &self,
        ad_platform: &str,
        input: &compat::ConversionReport,
    ) -> Result<compat::ConversionResult, ClientError> {
        // One path segment whatever the name holds.
        let segment: String = ad_platform
            .bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    char::from(b).to_string()
                }
                other => format!("%{other:02X}"),
            })
            .collect();
        let path = format!("/openapi/v1/adcallback/{segment}/conversions");
        self.with_body(op::COMPAT_CONVERSIONS_REPORT, &path, input)
            .await
    }

    /// `POST /openapi/v1/chain/create`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_create_chain(
        &self,
        input: &compat::CreateChain,
    ) -> Result<compat::CreatedChain, ClientError> {
        self.with_body(op::COMPAT_CHAIN_CREATE, "/openapi/v1/chain/create", input)
            .await
    }

    /// `POST /openapi/v1/chain/edit`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_edit_chain(
        &self,
        input: &compat::EditChain,
    ) -> Result<compat::EditedChain, ClientError> {
        self.with_body(op::COMPAT_CHAIN_EDIT, "/openapi/v1/chain/edit", input)
            .await
    }

    /// `POST /openapi/v1/chain/delete`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_delete_chains(
        &self,
        input: &compat::DeleteChains,
    ) -> Result<(), ClientError> {
        let _: crate::wire::envelope::Empty = self
            .with_body(op::COMPAT_CHAIN_DELETE, "/openapi/v1/chain/delete", input)
            .await?;
        Ok(())
    }

    /// `POST /openapi/v1/chain/list`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_list_chains(
        &self,
        input: &compat::ListChains,
    ) -> Result<compat::ChainList, ClientError> {
        self.with_body(op::COMPAT_CHAIN_LIST, "/openapi/v1/chain/list", input)
            .await
    }

    /// `POST /openapi/v1/chain/info`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_chain_info(
        &self,
        input: &compat::ChainInfo,
    ) -> Result<compat::ChainItem, ClientError> {
        self.with_body(op::COMPAT_CHAIN_INFO, "/openapi/v1/chain/info", input)
            .await
    }

    /// `POST /openapi/v1/group/create`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_create_group(
        &self,
        input: &compat::CreateGroup,
    ) -> Result<compat::CreatedGroup, ClientError> {
        self.with_body(op::COMPAT_GROUP_CREATE, "/openapi/v1/group/create", input)
            .await
    }

    /// `POST /openapi/v1/group/list`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_groups(&self) -> Result<compat::GroupList, ClientError> {
        self.with_body(
            op::COMPAT_GROUP_LIST,
            "/openapi/v1/group/list",
            &serde_json::json!({}),
        )
        .await
    }

    /// `POST /openapi/v1/domain/list`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_domains(&self) -> Result<compat::DomainList, ClientError> {
        self.with_body(
            op::COMPAT_DOMAIN_LIST,
            "/openapi/v1/domain/list",
            &serde_json::json!({}),
        )
        .await
    }

    /// `POST /card/createWxChain`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_card(
        &self,
        input: &compat::WxChainInput,
    ) -> Result<compat::CreatedWxChain, ClientError> {
        self.with_body(op::CARD_CREATE, "/card/createWxChain", input)
            .await
    }

    /// `POST /openapi/v1/wxchain/create`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_create_wx_chain(
        &self,
        input: &compat::WxChainInput,
    ) -> Result<compat::CreatedWxChain, ClientError> {
        self.with_body(
            op::COMPAT_WXCHAIN_CREATE,
            "/openapi/v1/wxchain/create",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/wxchain/edit`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_edit_wx_chain(
        &self,
        input: &compat::WxChainInput,
    ) -> Result<compat::CreatedWxChain, ClientError> {
        self.with_body(op::COMPAT_WXCHAIN_EDIT, "/openapi/v1/wxchain/edit", input)
            .await
    }

    /// `POST /openapi/v1/wxchain/info`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_wx_chain_info(
        &self,
        input: &compat::ChainRef,
    ) -> Result<compat::WxChainInfo, ClientError> {
        self.with_body(op::COMPAT_WXCHAIN_INFO, "/openapi/v1/wxchain/info", input)
            .await
    }

    /// `POST /openapi/v1/workchat/chain/create`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_workchat_chain(
        &self,
        input: &compat::WorkchatChainInput,
    ) -> Result<compat::CreatedWxChain, ClientError> {
        self.with_body(
            op::COMPAT_WORKCHAT_CHAIN_CREATE,
            "/openapi/v1/workchat/chain/create",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/workchat/chain/edit`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn edit_workchat_chain(
        &self,
        input: &compat::WorkchatChainInput,
    ) -> Result<compat::CreatedWxChain, ClientError> {
        self.with_body(
            op::COMPAT_WORKCHAT_CHAIN_EDIT,
            "/openapi/v1/workchat/chain/edit",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/workchat/chain/info`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn workchat_chain_info(
        &self,
        input: &compat::ChainRef,
    ) -> Result<compat::WorkchatChainInfo, ClientError> {
        self.with_body(
            op::COMPAT_WORKCHAT_CHAIN_INFO,
            "/openapi/v1/workchat/chain/info",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/workchat/assembly/list`: the caller's assembly list.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn assemblies(
        &self,
        input: &compat::ListAssemblies,
    ) -> Result<compat::AssemblyList, ClientError> {
        self.with_body(
            op::COMPAT_WORKCHAT_ASSEMBLY_LIST,
            "/openapi/v1/workchat/assembly/list",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/workchat/transfer/result?corp_id=`: one page; pass `next_cursor`
    /// back as `cursor` for the next.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn transfer_result(
        &self,
        corp_id: &str,
        input: &compat::TransferRequest,
    ) -> Result<compat::TransferResult, ClientError> {
        let query = serde_urlencoded::to_string(compat::TransferQuery {
            corp_id: corp_id.to_owned(),
        })
        .unwrap_or_default();
        self.with_body(
            op::COMPAT_WORKCHAT_TRANSFER_RESULT,
            &format!("/openapi/v1/workchat/transfer/result?{query}"),
            input,
        )
        .await
    }

    /// `POST /openapi/v1/template/list`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_templates(
        &self,
        input: &compat::ListTemplates,
    ) -> Result<compat::TemplateList, ClientError> {
        self.with_body(op::COMPAT_TEMPLATE_LIST, "/openapi/v1/template/list", input)
            .await
    }

    /// `POST /openapi/v1/wxchain/list`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_list_wx_chains(
        &self,
        input: &compat::ListWxChains,
    ) -> Result<compat::WxChainList, ClientError> {
        self.with_body(op::COMPAT_WXCHAIN_LIST, "/openapi/v1/wxchain/list", input)
            .await
    }

    /// `POST /openapi/v1/upload/image`: each file a part named `file`; the server judges
    /// each on its own and answers which were stored and why the others were not.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_upload_images(
        &self,
        files: Vec<(String, Vec<u8>)>,
    ) -> Result<compat::UploadResult, ClientError> {
        let mut form = reqwest::multipart::Form::new();
        for (file_name, bytes) in files {
            form = form.part(
                "file",
                reqwest::multipart::Part::bytes(bytes).file_name(file_name),
            );
        }
        let (request, url) = self.request(op::COMPAT_UPLOAD_IMAGE, "/openapi/v1/upload/image");
        self.send(op::COMPAT_UPLOAD_IMAGE, request.multipart(form), url)
            .await
    }
}
