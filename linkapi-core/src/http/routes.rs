//! The route table: every operation the server answers, one row each. A row says all there is
//! to know about an operation (see `route`); adding an operation is adding a row, its handler
//! and the service method behind it.
//!
//! Handlers come from `handlers::*` (aliased `p`, `c`, `admin`, `j`, `t`, `u`, `pb`, `w`, `wh`), the wire
//! types they decode and encode from `wire::*` (aliased `wp`, `wc`, `wa`).

use http::Method;

use super::MetricsAccess;
use super::handlers;
use super::response::Envelope;
use super::route::{Output, Route, compat, handler, primary, public, vendor, with_vendor_paths};
use crate::metrics::REDIRECT;
use crate::model::{Resource, Scope};
use crate::wire::envelope::Empty;
use crate::wire::{admin as wa, compat as wc, primary as wp};

/// The breakdown routes' paths and operation names, one per [`crate::model::Dimension`],
/// whose name ends the path (the handler reads it there; a test holds them to it).
const BREAKDOWN_PATHS: [(&str, &str); 7] = [
    ("/chains/{id}/stats/referrers", "chains.stats.referrers"),
    ("/chains/{id}/stats/devices", "chains.stats.devices"),
    ("/chains/{id}/stats/os", "chains.stats.os"),
    ("/chains/{id}/stats/browsers", "chains.stats.browsers"),
    ("/chains/{id}/stats/countries", "chains.stats.countries"),
    ("/chains/{id}/stats/languages", "chains.stats.languages"),
    ("/chains/{id}/stats/rules", "chains.stats.rules"),
];

const GET: Method = Method::GET;
const POST: Method = Method::POST;
const PATCH: Method = Method::PATCH;
const DELETE: Method = Method::DELETE;

/// Every operation the server answers; `/metrics` as `metrics` says. The rows the original
/// vendor's clients call by their own names (`.vendor(..)`, contract section 5) come again at
/// the end, once for each of their vendor paths.
pub(crate) fn routes(metrics: MetricsAccess) -> Vec<Route> {
    use Resource::{
        Card, Chains, Conversions, Domains, Groups, Stats, Templates, Uploads, Webhooks, Workchat,
    };
    use Scope::{Admin, Read, Write};
    use handlers::{
        admin, compat as c, page_chains as j, primary as p, public as pb, templates as t,
        uploads as u, webhooks as wh, workchat as w,
    };
    let mut routes = vec![
        public(
            "/healthz",
            "healthz",
            Envelope::Primary,
            handler!(pb::healthz),
        )
        .ok::<wp::Health>(),
        public("/readyz", "readyz", Envelope::Primary, handler!(pb::readyz)).ok::<wp::Health>(),
        match metrics {
            MetricsAccess::Loopback => public(
                "/metrics",
                "metrics",
                Envelope::Primary,
                handler!(pb::metrics_on_loopback),
            ),
            MetricsAccess::Admin => {
                primary(GET, "/metrics", "metrics", Admin, handler!(admin::metrics))
            }
        }
        .answers(Output::Metrics),
        // Short chains.
        primary(
            POST,
            "/chains",
            "chains.create",
            Write(Chains),
            handler!(p::create_chain),
        )
        .idempotent()
        .body::<wp::CreateChain>()
        .created::<wp::Chain>(),
        primary(
            POST,
            "/chains/bulk",
            "chains.create_bulk",
            Write(Chains),
            handler!(p::create_chains),
        )
        .idempotent()
        .body::<wp::BulkCreateChains>()
        .large_body()
        .ok::<wp::BulkCreated>(),
        primary(
            GET,
            "/chains",
            "chains.list",
            Read(Chains),
            handler!(p::list_chains),
        )
        .query::<wp::ListChains>()
        .ok::<wp::ChainPage>(),
        primary(
            GET,
            "/chains/{id}",
            "chains.get",
            Read(Chains),
            handler!(p::get_chain),
        )
        .ok::<wp::Chain>(),
        primary(
            PATCH,
            "/chains/{id}",
            "chains.update",
            Write(Chains),
            handler!(p::update_chain),
        )
        .body::<wp::UpdateChain>()
        .ok::<wp::Chain>(),
        primary(
            DELETE,
            "/chains/{id}",
            "chains.delete",
            Write(Chains),
            handler!(p::delete_chain),
        )
        .ok::<wp::DeletedChain>(),
        primary(
            GET,
            "/chains/{id}/stats",
            "chains.stats",
            Read(Stats),
            handler!(p::chain_stats),
        )
        .query::<wp::StatsQuery>()
        .ok::<wp::ChainStats>(),
    ];
    // A chain's breakdowns: a row per dimension (the router takes one path parameter).
    routes.push(
        primary(GET, "/stats", "stats", Read(Stats), handler!(p::user_stats))
            .query::<wp::TopQuery>()
            .ok::<wp::UserStats>(),
    );
    routes.extend(BREAKDOWN_PATHS.iter().map(|(path, name)| {
        primary(GET, path, name, Read(Stats), handler!(p::chain_breakdown))
            .query::<wp::TopQuery>()
            .ok::<wp::ChainBreakdown>()
    }));
    routes.extend([
        primary(
            GET,
            "/chains/{id}/qr",
            "chains.qr",
            Read(Chains),
            handler!(p::chain_qr),
        )
        .query::<wp::QrQuery>()
        .answers(Output::Image),
        primary(
            GET,
            "/chains/{id}/conversions",
            "chains.conversions",
            Read(Conversions),
            handler!(p::list_conversions),
        )
        .query::<wp::ListConversions>()
        .ok::<wp::ConversionPage>(),
        // Groups, domains, templates.
        primary(
            POST,
            "/groups",
            "groups.create",
            Write(Groups),
            handler!(p::create_group),
        )
        .idempotent()
        .body::<wp::CreateGroup>()
        .created::<wp::Group>(),
        primary(
            GET,
            "/groups",
            "groups.list",
            Read(Groups),
            handler!(p::list_groups),
        )
        .ok::<Vec<wp::Group>>(),
        primary(
            GET,
            "/domains",
            "domains.list",
            Read(Domains),
            handler!(p::list_domains),
        )
        .ok::<Vec<wp::Domain>>(),
        primary(
            GET,
            "/templates",
            "templates.list",
            Read(Templates),
            handler!(t::list),
        )
        .query::<wp::ListTemplates>()
        .ok::<wp::TemplatePage>(),
        // Webhook endpoints.
        primary(
            POST,
            "/webhooks",
            "webhooks.create",
            Write(Webhooks),
            handler!(wh::create),
        )
        .body::<wp::CreateWebhook>()
        .created::<wp::Webhook>(),
        primary(
            GET,
            "/webhooks",
            "webhooks.list",
            Read(Webhooks),
            handler!(wh::list),
        )
        .ok::<Vec<wp::Webhook>>(),
        primary(
            GET,
            "/webhooks/{id}",
            "webhooks.get",
            Read(Webhooks),
            handler!(wh::get),
        )
        .ok::<wp::Webhook>(),
        primary(
            PATCH,
            "/webhooks/{id}",
            "webhooks.update",
            Write(Webhooks),
            handler!(wh::update),
        )
        .body::<wp::UpdateWebhook>()
        .ok::<wp::Webhook>(),
        primary(
            DELETE,
            "/webhooks/{id}",
            "webhooks.delete",
            Write(Webhooks),
            handler!(wh::delete),
        )
        .ok::<wp::DeletedWebhook>(),
        primary(
            POST,
            "/webhooks/{id}/rotate-secret",
            "webhooks.rotate_secret",
            Write(Webhooks),
            handler!(wh::rotate_secret),
        )
        .ok::<wp::Webhook>(),
        primary(
            POST,
            "/webhooks/{id}/test",
            "webhooks.test",
            Write(Webhooks),
            handler!(wh::test),
        )
        .ok::<wp::WebhookTest>(),
        primary(
            GET,
            "/webhooks/{id}/deliveries",
            "webhooks.deliveries",
            Read(Webhooks),
            handler!(wh::deliveries),
        )
        .query::<wp::ListDeliveries>()
        .ok::<wp::DeliveryPage>(),
        // Uploads and hosted files.
        primary(
            POST,
            "/uploads",
            "uploads.create",
            Write(Uploads),
            handler!(u::upload),
        )
        .multipart()
        .created::<wp::Upload>(),
        primary(
            GET,
            "/uploads",
            "uploads.list",
            Read(Uploads),
            handler!(u::list_uploads),
        )
        .query::<wp::ListUploads>()
        .ok::<wp::UploadPage>(),
        primary(
            DELETE,
            "/uploads/{file_id}",
            "uploads.delete",
            Write(Uploads),
            handler!(u::delete_upload),
        )
        .ok::<wp::Upload>(),
        public(
            "/files/{object_key}",
            "files.get",
            Envelope::Page,
            handler!(u::serve_file),
        )
        .answers(Output::Image),
        // Messaging-app chains.
        primary(
            POST,
            "/wx-chains",
            "wx_chains.create",
            Write(Chains),
            handler!(j::create_wx_chain),
        )
        .idempotent()
        .body::<wp::NewWxChain>()
        .created::<wp::CreatedWxChain>(),
        primary(
            GET,
            "/wx-chains",
            "wx_chains.list",
            Read(Chains),
            handler!(j::list_wx_chains),
        )
        .query::<wp::ListWxChains>()
        .ok::<wp::WxChainPage>(),
        primary(
            GET,
            "/wx-chains/{id}",
            "wx_chains.get",
            Read(Chains),
            handler!(j::get_wx_chain),
        )
        .ok::<wp::WxChain>(),
        primary(
            PATCH,
            "/wx-chains/{id}",
            "wx_chains.update",
            Write(Chains),
            handler!(j::update_wx_chain),
        )
        .body::<wp::WxChainInput>()
        .ok::<wp::WxChain>(),
        primary(
            DELETE,
            "/wx-chains/{id}",
            "wx_chains.delete",
            Write(Chains),
            handler!(j::delete_wx_chain),
        )
        .ok::<wp::DeletedChain>(),
        primary(
            GET,
            "/wx-chains/{id}/qr",
            "wx_chains.qr",
            Read(Chains),
            handler!(p::chain_qr),
        )
        .query::<wp::QrQuery>()
        .answers(Output::Image),
        // Card chains: a primary path, the compatibility surface's key and envelopes.
        primary(
            GET,
            "/card",
            "card.list",
            Read(Card),
            handler!(j::list_cards),
        )
        .ok::<wp::CardList>(),
        compat(
            POST,
            "/card/createWxChain",
            "card.create",
            Write(Card),
            handler!(j::create_card),
        )
        .idempotent()
        .body::<wc::CardChainInput>()
        .ok::<wc::CreatedWxChain>(),
        // Administration.
        primary(
            POST,
            "/admin/users",
            "admin.users.create",
            Admin,
            handler!(admin::create_user),
        )
        .body::<wa::CreateUser>()
        .created::<wa::User>(),
        primary(
            GET,
            "/admin/users",
            "admin.users.list",
            Admin,
            handler!(admin::list_users),
        )
        .ok::<Vec<wa::User>>(),
        primary(
            GET,
            "/admin/users/{id}",
            "admin.users.get",
            Admin,
            handler!(admin::get_user),
        )
        .ok::<wa::UserDetail>(),
        primary(
            PATCH,
            "/admin/users/{id}",
            "admin.users.edit",
            Admin,
            handler!(admin::edit_user),
        )
        .body::<wa::EditUser>()
        .ok::<wa::User>(),
        primary(
            POST,
            "/admin/keys",
            "admin.keys.create",
            Admin,
            handler!(admin::create_key),
        )
        .body::<wa::CreateKey>()
        .created::<wa::CreatedKey>(),
        primary(
            GET,
            "/admin/keys",
            "admin.keys.list",
            Admin,
            handler!(admin::list_keys),
        )
        .query::<wa::ListKeys>()
        .ok::<Vec<wa::Key>>(),
        primary(
            DELETE,
            "/admin/keys/{id}",
            "admin.keys.revoke",
            Admin,
            handler!(admin::revoke_key),
        )
        .ok::<wa::Key>(),
        primary(
            POST,
            "/admin/domains",
            "admin.domains.create",
            Admin,
            handler!(admin::create_domain),
        )
        .body::<wa::CreateDomain>()
        .created::<wa::Domain>(),
        primary(
            GET,
            "/admin/domains",
            "admin.domains.list",
            Admin,
            handler!(admin::list_domains),
        )
        .ok::<Vec<wa::Domain>>(),
        primary(
            PATCH,
            "/admin/domains/{id}",
            "admin.domains.update",
            Admin,
            handler!(admin::update_domain),
        )
        .body::<wa::UpdateDomain>()
        .ok::<wa::Domain>(),
        primary(
            POST,
            "/admin/visitor-secret",
            "admin.visitor_secret.rotate",
            Admin,
            handler!(admin::rotate_visitor_secret),
        )
        .ok::<wa::VisitorSecretRotated>(),
        primary(
            POST,
            "/admin/templates",
            "admin.templates.create",
            Admin,
            handler!(t::create),
        )
        .body::<wa::CreateTemplate>()
        .created::<wa::Template>(),
        primary(
            GET,
            "/admin/templates",
            "admin.templates.list",
            Admin,
            handler!(t::admin_list),
        )
        .query::<wa::ListTemplates>()
        .ok::<Vec<wa::Template>>(),
        primary(
            PATCH,
            "/admin/templates/{id}",
            "admin.templates.update",
            Admin,
            handler!(t::update),
        )
        .body::<wa::UpdateTemplate>()
        .ok::<wa::Template>(),
        primary(
            GET,
            "/admin/templates/{id}/preview",
            "admin.templates.preview",
            Admin,
            handler!(t::preview),
        )
        .query::<wa::PreviewTemplate>()
        .answers(Output::Html),
        primary(
            DELETE,
            "/admin/templates/{id}",
            "admin.templates.retire",
            Admin,
            handler!(t::retire),
        )
        .ok::<wa::Template>(),
        primary(
            POST,
            "/admin/workchat/assemblies",
            "admin.workchat.assemblies.put",
            Admin,
            handler!(w::admin_put_assembly),
        )
        .body::<wa::PutAssembly>()
        .ok::<wa::Assembly>(),
        primary(
            GET,
            "/admin/workchat/assemblies",
            "admin.workchat.assemblies.list",
            Admin,
            handler!(w::admin_list_assemblies),
        )
        .query::<wa::ListAssemblies>()
        .ok::<wa::AssemblyPage>(),
        primary(
            POST,
            "/admin/workchat/transfers",
            "admin.workchat.transfers.load",
            Admin,
            handler!(w::admin_load_transfers),
        )
        .body::<wa::LoadTransfers>()
        .ok::<wa::LoadedTransfers>(),
        // The compatibility surface.
        compat(
            POST,
            "/openapi/v1/chain/create",
            "compat.chain.create",
            Write(Chains),
            handler!(c::create_chain),
        )
        .vendor(vendor!("chain" / "createChain"))
        .idempotent()
        .body::<wc::CreateChain>()
        .ok::<wc::CreatedChain>(),
        compat(
            POST,
            "/openapi/v1/chain/edit",
            "compat.chain.edit",
            Write(Chains),
            handler!(c::edit_chain),
        )
        .vendor(vendor!("chain" / "editChain"))
        .vendor(vendor!("chain" / "editchain"))
        .body::<wc::EditChain>()
        .ok::<wc::EditedChain>(),
        compat(
            POST,
            "/openapi/v1/chain/delete",
            "compat.chain.delete",
            Write(Chains),
            handler!(c::delete_chains),
        )
        .vendor(vendor!("chain" / "delChain"))
        .body::<wc::DeleteChains>()
        .ok::<Empty>(),
        compat(
            POST,
            "/openapi/v1/group/create",
            "compat.group.create",
            Write(Groups),
            handler!(c::create_group),
        )
        .vendor(vendor!("chainGroup" / "createChainGroup"))
        .idempotent()
        .body::<wc::CreateGroup>()
        .ok::<wc::CreatedGroup>(),
        compat(
            POST,
            "/openapi/v1/upload/image",
            "compat.upload.image",
            Write(Uploads),
            handler!(u::upload_images),
        )
        .multipart()
        .ok::<wc::UploadResult>(),
        compat(
            POST,
            "/openapi/v1/adcallback/{ad_platform_name}/conversions",
            "compat.conversions.report",
            Write(Conversions),
            handler!(c::report_conversion),
        )
        .envelopes(Envelope::Status, Envelope::Primary)
        .body::<wc::ConversionReport>()
        .ok::<wc::ConversionResult>(),
        compat(
            POST,
            "/openapi/v1/wxchain/create",
            "compat.wxchain.create",
            Write(Chains),
            handler!(j::compat_create_wx_chain),
        )
        .vendor(vendor!("chain" / "createWxChain"))
        .idempotent()
        .body::<wc::WxChainInput>()
        .ok::<wc::CreatedWxChain>(),
        compat(
            POST,
            "/openapi/v1/wxchain/edit",
            "compat.wxchain.edit",
            Write(Chains),
            handler!(j::compat_edit_wx_chain),
        )
        .body::<wc::WxChainInput>()
        .ok::<wc::CreatedWxChain>(),
        compat(
            POST,
            "/openapi/v1/workchat/chain/create",
            "compat.workchat.chain.create",
            Write(Chains),
            handler!(j::compat_create_workchat_chain),
        )
        .idempotent()
        .body::<wc::WorkchatChainInput>()
        .ok::<wc::CreatedWxChain>(),
        compat(
            POST,
            "/openapi/v1/workchat/chain/edit",
            "compat.workchat.chain.edit",
            Write(Chains),
            handler!(j::compat_edit_workchat_chain),
        )
        .vendor(vendor!("chain" / "editWxworkChain"))
        .body::<wc::WorkchatChainInput>()
        .ok::<wc::CreatedWxChain>(),
        compat(
            POST,
            "/openapi/v1/workchat/transfer/result",
            "compat.workchat.transfer.result",
            Read(Workchat),
            handler!(w::transfer_result),
        )
        .envelopes(Envelope::Status, Envelope::Primary)
        .query::<wc::TransferQuery>()
        .body::<wc::TransferRequest>()
        .ok::<wc::TransferResult>(),
        // For people and tools.
        public(
            "/openapi.json",
            "openapi",
            Envelope::Primary,
            handler!(pb::openapi),
        )
        .answers(Output::Json(200, openapi_document_schema)),
        public(
            "/favicon.ico",
            "favicon",
            Envelope::Page,
            handler!(pb::favicon),
        )
        .answers(Output::NoContent),
        public("/", "home", Envelope::Page, handler!(pb::home)).answers(Output::Html),
        public("/{code}", REDIRECT, Envelope::Page, handler!(pb::redirect))
            .at_once(pb::redirect_at_once)
            .answers(Output::Link),
    ]);
    // List and info actions also answer GET with their fields as query parameters.
    for method in [GET, POST] {
        let action = |path, name, resource, handler| {
            compat(method.clone(), path, name, Read(resource), handler)
        };
        routes.extend([
            action(
                "/openapi/v1/chain/list",
                "compat.chain.list",
                Chains,
                handler!(c::list_chains),
            )
            .vendor(vendor!("chain" / "getChainList"))
            .body::<wc::ListChains>()
            .ok::<wc::ChainList>(),
            action(
                "/openapi/v1/chain/info",
                "compat.chain.info",
                Chains,
                handler!(c::chain_info),
            )
            .body::<wc::ChainInfo>()
            .ok::<wc::ChainItem>(),
            action(
                "/openapi/v1/group/list",
                "compat.group.list",
                Groups,
                handler!(c::list_groups),
            )
            .vendor(vendor!("chainGroup" / "getChainGroup").answering::<Vec<wc::GroupItem>>())
            .body::<wc::ListGroups>()
            .ok::<wc::GroupList>(),
            action(
                "/openapi/v1/template/list",
                "compat.template.list",
                Templates,
                handler!(t::compat_list),
            )
            .body::<wc::ListTemplates>()
            .ok::<wc::TemplateList>(),
            action(
                "/openapi/v1/wxchain/list",
                "compat.wxchain.list",
                Chains,
                handler!(j::compat_list_wx_chains),
            )
            .body::<wc::ListWxChains>()
            .ok::<wc::WxChainList>(),
            action(
                "/openapi/v1/wxchain/info",
                "compat.wxchain.info",
                Chains,
                handler!(j::compat_wx_chain_info),
            )
            .body::<wc::ChainRef>()
            .ok::<wc::WxChainInfo>(),
            action(
                "/openapi/v1/workchat/chain/info",
                "compat.workchat.chain.info",
                Chains,
                handler!(j::compat_workchat_chain_info),
            )
            .body::<wc::ChainRef>()
            .ok::<wc::WorkchatChainInfo>(),
            action(
                "/openapi/v1/workchat/assembly/list",
                "compat.workchat.assembly.list",
                Workchat,
                handler!(w::compat_list_assemblies),
            )
            .vendor(vendor!("chain" / "getCustomerAssemblyList"))
            .body::<wc::ListAssemblies>()
            .ok::<wc::AssemblyList>(),
            action(
                "/openapi/v1/domain/list",
                "compat.domain.list",
                Domains,
                handler!(c::list_domains),
            )
            .ok::<wc::DomainList>(),
        ]);
    }
    with_vendor_paths(routes)
}

/// What `GET /openapi.json` answers: a document whose shape is OpenAPI's, not this one's.
fn openapi_document_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "object",
        "description": "The OpenAPI 3.1 document of every operation on both surfaces.",
        "required": ["openapi", "info", "paths"],
        "properties": {"openapi": {"type": "string"}}
    })
}

#[cfg(test)]
mod tests {
    use super::BREAKDOWN_PATHS;
    use crate::model::Dimension;

    #[test]
    fn every_dimension_has_its_breakdown_route() {
        let named: Vec<_> = BREAKDOWN_PATHS
            .iter()
            .map(|(path, name)| {
                let dimension = path.rsplit('/').next().and_then(Dimension::from_name);
                assert_eq!(
                    name.rsplit('.').next().and_then(Dimension::from_name),
                    dimension
                );
                dimension
            })
            .collect();
        assert_eq!(named, Dimension::ALL.map(Some));
    }
}
