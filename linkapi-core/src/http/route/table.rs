//! The route table: every operation the server answers, one row each. A row says all there is
//! to know about an operation (see `route`); adding an operation is adding a row, its handler
//! and the service method behind it.
//!
//! Handlers come from `handlers::*` (aliased `p`, `c`, `admin`, `j`, `t`, `u`, `pb`, `w`, `wh`), the wire
//! types they decode and encode from `wire::*` (aliased `wp`, `wc`, `wa`).

use http::Method;

use super::{
    Output, Route, compat, compat_by, handler, primary, public, vendor, with_vendor_paths,
};
use crate::http::MetricsAccess;
use crate::http::handlers;
use crate::model::{Resource, Scope};
use crate::wire::envelope::Empty;
use crate::wire::operations::{Operation, op};
use crate::wire::{admin as wa, compat as wc, primary as wp};

/// The breakdown operations, one per [`crate::model::Dimension`], whose name ends the path
/// (the handler reads it there; a test holds them to it).
const BREAKDOWNS: [Operation; 7] = [
    op::CHAINS_STATS_REFERRERS,
    op::CHAINS_STATS_DEVICES,
    op::CHAINS_STATS_OS,
    op::CHAINS_STATS_BROWSERS,
    op::CHAINS_STATS_COUNTRIES,
    op::CHAINS_STATS_LANGUAGES,
    op::CHAINS_STATS_RULES,
];

const GET: Method = Method::GET;
const POST: Method = Method::POST;

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
        public(op::HEALTHZ, handler!(pb::healthz)).ok::<wp::Health>(),
        public(op::READYZ, handler!(pb::readyz)).ok::<wp::Health>(),
        match metrics {
            MetricsAccess::Loopback => public(op::METRICS, handler!(pb::metrics_on_loopback)),
            MetricsAccess::Admin => primary(op::METRICS, Admin, handler!(admin::metrics)),
        }
        .answers(Output::Metrics),
        // Short chains.
        primary(op::CHAINS_CREATE, Write(Chains), handler!(p::create_chain))
            .idempotent()
            .body::<wp::CreateChain>()
            .created::<wp::Chain>(),
        primary(
            op::CHAINS_CREATE_BULK,
            Write(Chains),
            handler!(p::create_chains),
        )
        .idempotent()
        .body::<wp::BulkCreateChains>()
        .large_body()
        .ok::<wp::BulkCreated>(),
        primary(op::CHAINS_IMPORT, Write(Chains), handler!(p::import_chains))
            .query::<wp::ImportQuery>()
            .body::<wp::ImportChains>()
            .large_body()
            .ok::<wp::ImportAnswer>(),
        primary(op::CHAINS_LIST, Read(Chains), handler!(p::list_chains))
            .query::<wp::ListChains>()
            .ok::<wp::ChainPage>(),
        primary(op::CHAINS_EXPORT, Read(Chains), handler!(p::export_chains))
            .query::<wp::ExportQuery>()
            .answers(Output::Export),
        primary(op::CHAINS_GET, Read(Chains), handler!(p::get_chain)).ok::<wp::Chain>(),
        primary(op::CHAINS_UPDATE, Write(Chains), handler!(p::update_chain))
            .body::<wp::UpdateChain>()
            .ok::<wp::Chain>(),
        primary(op::CHAINS_DELETE, Write(Chains), handler!(p::delete_chain))
            .ok::<wp::DeletedChain>(),
        primary(
            op::CHAINS_ARCHIVE,
            Write(Chains),
            handler!(p::archive_chain),
        )
        .ok::<wp::Chain>(),
        primary(
            op::CHAINS_UNARCHIVE,
            Write(Chains),
            handler!(p::unarchive_chain),
        )
        .ok::<wp::Chain>(),
        primary(op::CHAINS_STATS, Read(Stats), handler!(p::chain_stats))
            .query::<wp::StatsQuery>()
            .ok::<wp::ChainStats>(),
    ];
    // A chain's breakdowns: a row per dimension (the router takes one path parameter).
    routes.push(
        primary(op::STATS, Read(Stats), handler!(p::user_stats))
            .query::<wp::TopQuery>()
            .ok::<wp::UserStats>(),
    );
    routes.extend(BREAKDOWNS.into_iter().map(|op| {
        primary(op, Read(Stats), handler!(p::chain_breakdown))
            .query::<wp::TopQuery>()
            .ok::<wp::ChainBreakdown>()
    }));
    routes.extend([
        primary(op::CHAINS_QR, Read(Chains), handler!(p::chain_qr))
            .query::<wp::QrQuery>()
            .answers(Output::QrCode),
        primary(
            op::CHAINS_CONVERSIONS,
            Read(Conversions),
            handler!(p::list_conversions),
        )
        .query::<wp::ListConversions>()
        .ok::<wp::ConversionPage>(),
        // Groups, domains, templates.
        primary(op::GROUPS_CREATE, Write(Groups), handler!(p::create_group))
            .idempotent()
            .body::<wp::CreateGroup>()
            .created::<wp::Group>(),
        primary(op::GROUPS_LIST, Read(Groups), handler!(p::list_groups)).ok::<Vec<wp::Group>>(),
        primary(op::GROUPS_GET, Read(Groups), handler!(p::get_group)).ok::<wp::Group>(),
        primary(op::DOMAINS_LIST, Read(Domains), handler!(p::list_domains)).ok::<Vec<wp::Domain>>(),
        primary(op::TEMPLATES_LIST, Read(Templates), handler!(t::list))
            .query::<wp::ListTemplates>()
            .ok::<wp::TemplatePage>(),
        // Webhook endpoints.
        primary(op::WEBHOOKS_CREATE, Write(Webhooks), handler!(wh::create))
            .body::<wp::CreateWebhook>()
            .created::<wp::Webhook>(),
        primary(op::WEBHOOKS_LIST, Read(Webhooks), handler!(wh::list)).ok::<Vec<wp::Webhook>>(),
        primary(op::WEBHOOKS_GET, Read(Webhooks), handler!(wh::get)).ok::<wp::Webhook>(),
        primary(op::WEBHOOKS_UPDATE, Write(Webhooks), handler!(wh::update))
            .body::<wp::UpdateWebhook>()
            .ok::<wp::Webhook>(),
        primary(op::WEBHOOKS_DELETE, Write(Webhooks), handler!(wh::delete))
            .ok::<wp::DeletedWebhook>(),
        primary(
            op::WEBHOOKS_ROTATE_SECRET,
            Write(Webhooks),
            handler!(wh::rotate_secret),
        )
        .ok::<wp::Webhook>(),
        primary(op::WEBHOOKS_TEST, Write(Webhooks), handler!(wh::test)).ok::<wp::WebhookTest>(),
        primary(
            op::WEBHOOKS_DELIVERIES,
            Read(Webhooks),
            handler!(wh::deliveries),
        )
        .query::<wp::ListDeliveries>()
        .ok::<wp::DeliveryPage>(),
        // Uploads and hosted files.
        primary(op::UPLOADS_CREATE, Write(Uploads), handler!(u::upload))
            .multipart()
            .created::<wp::Upload>(),
        primary(op::UPLOADS_LIST, Read(Uploads), handler!(u::list_uploads))
            .query::<wp::ListUploads>()
            .ok::<wp::UploadPage>(),
        primary(
            op::UPLOADS_DELETE,
            Write(Uploads),
            handler!(u::delete_upload),
        )
        .ok::<wp::Upload>(),
        public(op::FILES_GET, handler!(u::serve_file)).answers(Output::HostedImage),
        // Messaging-app chains.
        primary(
            op::WX_CHAINS_CREATE,
            Write(Chains),
            handler!(j::create_wx_chain),
        )
        .idempotent()
        .body::<wp::NewWxChain>()
        .created::<wp::CreatedWxChain>(),
        primary(
            op::WX_CHAINS_LIST,
            Read(Chains),
            handler!(j::list_wx_chains),
        )
        .query::<wp::ListWxChains>()
        .ok::<wp::WxChainPage>(),
        primary(op::WX_CHAINS_GET, Read(Chains), handler!(j::get_wx_chain)).ok::<wp::WxChain>(),
        primary(
            op::WX_CHAINS_UPDATE,
            Write(Chains),
            handler!(j::update_wx_chain),
        )
        .body::<wp::WxChainInput>()
        .ok::<wp::WxChain>(),
        primary(
            op::WX_CHAINS_DELETE,
            Write(Chains),
            handler!(j::delete_wx_chain),
        )
        .ok::<wp::DeletedChain>(),
        primary(op::WX_CHAINS_QR, Read(Chains), handler!(p::chain_qr))
            .query::<wp::QrQuery>()
            .answers(Output::QrCode),
        // Card chains: a primary path, the compatibility surface's key and envelopes.
        primary(op::CARD_LIST, Read(Card), handler!(j::list_cards)).ok::<wp::CardList>(),
        compat(op::CARD_CREATE, Write(Card), handler!(j::create_card))
            .idempotent()
            .body::<wc::CardChainInput>()
            .ok::<wc::CreatedWxChain>(),
        // Administration.
        primary(op::ADMIN_USERS_CREATE, Admin, handler!(admin::create_user))
            .body::<wa::CreateUser>()
            .created::<wa::User>(),
        primary(op::ADMIN_USERS_LIST, Admin, handler!(admin::list_users)).ok::<Vec<wa::User>>(),
        primary(op::ADMIN_USERS_GET, Admin, handler!(admin::get_user)).ok::<wa::UserDetail>(),
        primary(op::ADMIN_USERS_EDIT, Admin, handler!(admin::edit_user))
            .body::<wa::EditUser>()
            .ok::<wa::User>(),
        primary(op::ADMIN_KEYS_CREATE, Admin, handler!(admin::create_key))
            .body::<wa::CreateKey>()
            .created::<wa::CreatedKey>(),
        primary(op::ADMIN_KEYS_LIST, Admin, handler!(admin::list_keys))
            .query::<wa::ListKeys>()
            .ok::<Vec<wa::Key>>(),
        primary(op::ADMIN_KEYS_REVOKE, Admin, handler!(admin::revoke_key)).ok::<wa::Key>(),
        primary(
            op::ADMIN_ORPHAN_VISITS,
            Admin,
            handler!(admin::orphan_visits),
        )
        .query::<wp::StatsQuery>()
        .ok::<wa::OrphanVisits>(),
        primary(
            op::ADMIN_DOMAINS_CREATE,
            Admin,
            handler!(admin::create_domain),
        )
        .body::<wa::CreateDomain>()
        .created::<wa::Domain>(),
        primary(op::ADMIN_DOMAINS_LIST, Admin, handler!(admin::list_domains))
            .ok::<Vec<wa::Domain>>(),
        primary(
            op::ADMIN_DOMAINS_UPDATE,
            Admin,
            handler!(admin::update_domain),
        )
        .body::<wa::UpdateDomain>()
        .ok::<wa::Domain>(),
        primary(
            op::ADMIN_VISITOR_SECRET_ROTATE,
            Admin,
            handler!(admin::rotate_visitor_secret),
        )
        .ok::<wa::VisitorSecretRotated>(),
        primary(op::ADMIN_TEMPLATES_CREATE, Admin, handler!(t::create))
            .body::<wa::CreateTemplate>()
            .created::<wa::Template>(),
        primary(op::ADMIN_TEMPLATES_LIST, Admin, handler!(t::admin_list))
            .query::<wa::ListTemplates>()
            .ok::<Vec<wa::Template>>(),
        primary(op::ADMIN_TEMPLATES_UPDATE, Admin, handler!(t::update))
            .body::<wa::UpdateTemplate>()
            .ok::<wa::Template>(),
        primary(op::ADMIN_TEMPLATES_PREVIEW, Admin, handler!(t::preview))
            .query::<wa::PreviewTemplate>()
            .answers(Output::Html),
        primary(op::ADMIN_TEMPLATES_RETIRE, Admin, handler!(t::retire)).ok::<wa::Template>(),
        primary(
            op::ADMIN_WORKCHAT_ASSEMBLIES_PUT,
            Admin,
            handler!(w::admin_put_assembly),
        )
        .body::<wa::PutAssembly>()
        .ok::<wa::Assembly>(),
        primary(
            op::ADMIN_WORKCHAT_ASSEMBLIES_LIST,
            Admin,
            handler!(w::admin_list_assemblies),
        )
        .query::<wa::ListAssemblies>()
        .ok::<wa::AssemblyPage>(),
        primary(
            op::ADMIN_WORKCHAT_TRANSFERS_LOAD,
            Admin,
            handler!(w::admin_load_transfers),
        )
        .body::<wa::LoadTransfers>()
        .ok::<wa::LoadedTransfers>(),
        // The compatibility surface.
        compat(
            op::COMPAT_CHAIN_CREATE,
            Write(Chains),
            handler!(c::create_chain),
        )
        .vendor(vendor!("chain" / "createChain"))
        .idempotent()
        .body::<wc::CreateChain>()
        .ok::<wc::CreatedChain>(),
        compat(
            op::COMPAT_CHAIN_EDIT,
            Write(Chains),
            handler!(c::edit_chain),
        )
        .vendor(vendor!("chain" / "editChain"))
        .vendor(vendor!("chain" / "editchain"))
        .body::<wc::EditChain>()
        .ok::<wc::EditedChain>(),
        compat(
            op::COMPAT_CHAIN_DELETE,
            Write(Chains),
            handler!(c::delete_chains),
        )
        .vendor(vendor!("chain" / "delChain"))
        .body::<wc::DeleteChains>()
        .ok::<Empty>(),
        compat(
            op::COMPAT_GROUP_CREATE,
            Write(Groups),
            handler!(c::create_group),
        )
        .vendor(vendor!("chainGroup" / "createChainGroup"))
        .idempotent()
        .body::<wc::CreateGroup>()
        .ok::<wc::CreatedGroup>(),
        compat(
            op::COMPAT_UPLOAD_IMAGE,
            Write(Uploads),
            handler!(u::upload_images),
        )
        .multipart()
        .ok::<wc::UploadResult>(),
        compat(
            op::COMPAT_CONVERSIONS_REPORT,
            Write(Conversions),
            handler!(c::report_conversion),
        )
        .body::<wc::ConversionReport>()
        .ok::<wc::ConversionResult>(),
        compat(
            op::COMPAT_WXCHAIN_CREATE,
            Write(Chains),
            handler!(j::compat_create_wx_chain),
        )
        .vendor(vendor!("chain" / "createWxChain"))
        .idempotent()
        .body::<wc::WxChainInput>()
        .ok::<wc::CreatedWxChain>(),
        compat(
            op::COMPAT_WXCHAIN_EDIT,
            Write(Chains),
            handler!(j::compat_edit_page_chain::<wc::WxChainInput>),
        )
        .body::<wc::WxChainInput>()
        .ok::<wc::CreatedWxChain>(),
        compat(
            op::COMPAT_WORKCHAT_CHAIN_CREATE,
            Write(Chains),
            handler!(j::compat_create_workchat_chain),
        )
        .idempotent()
        .body::<wc::WorkchatChainInput>()
        .ok::<wc::CreatedWxChain>(),
        compat(
            op::COMPAT_WORKCHAT_CHAIN_EDIT,
            Write(Chains),
            handler!(j::compat_edit_page_chain::<wc::WorkchatChainInput>),
        )
        .vendor(vendor!("chain" / "editWxworkChain"))
        .body::<wc::WorkchatChainInput>()
        .ok::<wc::CreatedWxChain>(),
        compat(
            op::COMPAT_WORKCHAT_TRANSFER_RESULT,
            Read(Workchat),
            handler!(w::transfer_result),
        )
        .query::<wc::TransferQuery>()
        .body::<wc::TransferRequest>()
        .ok::<wc::TransferResult>(),
        // For people and tools.
        public(op::OPENAPI, handler!(pb::openapi))
            .answers(Output::Json(200, openapi_document_schema)),
        public(op::FAVICON, handler!(pb::favicon)).answers(Output::NoContent),
        public(op::HOME, handler!(pb::home)).answers(Output::Html),
        public(op::REDIRECT, handler!(pb::redirect))
            .at_once(pb::redirect_at_once)
            .answers(Output::Link),
    ]);
    // List and info actions also answer GET with their fields as query parameters.
    for method in [GET, POST] {
        let action = |op, resource, handler| compat_by(method.clone(), op, Read(resource), handler);
        routes.extend([
            action(op::COMPAT_CHAIN_LIST, Chains, handler!(c::list_chains))
                .vendor(vendor!("chain" / "getChainList"))
                .body::<wc::ListChains>()
                .ok::<wc::ChainList>(),
            action(op::COMPAT_CHAIN_INFO, Chains, handler!(c::chain_info))
                .body::<wc::ChainInfo>()
                .ok::<wc::ChainItem>(),
            action(op::COMPAT_GROUP_LIST, Groups, handler!(c::list_groups))
                .vendor(vendor!("chainGroup" / "getChainGroup").answering::<Vec<wc::GroupItem>>())
                .body::<wc::ListGroups>()
                .ok::<wc::GroupList>(),
            action(
                op::COMPAT_TEMPLATE_LIST,
                Templates,
                handler!(t::compat_list),
            )
            .body::<wc::ListTemplates>()
            .ok::<wc::TemplateList>(),
            action(
                op::COMPAT_WXCHAIN_LIST,
                Chains,
                handler!(j::compat_list_wx_chains),
            )
            .body::<wc::ListWxChains>()
            .ok::<wc::WxChainList>(),
            action(
                op::COMPAT_WXCHAIN_INFO,
                Chains,
                handler!(j::compat_wx_chain_info),
            )
            .body::<wc::ChainRef>()
            .ok::<wc::WxChainInfo>(),
            action(
                op::COMPAT_WORKCHAT_CHAIN_INFO,
                Chains,
                handler!(j::compat_workchat_chain_info),
            )
            .body::<wc::ChainRef>()
            .ok::<wc::WorkchatChainInfo>(),
            action(
                op::COMPAT_WORKCHAT_ASSEMBLY_LIST,
                Workchat,
                handler!(w::compat_list_assemblies),
            )
            .vendor(vendor!("chain" / "getCustomerAssemblyList"))
            .body::<wc::ListAssemblies>()
            .ok::<wc::AssemblyList>(),
            action(op::COMPAT_DOMAIN_LIST, Domains, handler!(c::list_domains))
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
    use super::{BREAKDOWNS, routes};
    use crate::http::MetricsAccess;
    use crate::model::Dimension;
    use crate::wire::operations::OPERATIONS;

    #[test]
    fn every_dimension_has_its_breakdown_route() {
        let named: Vec<_> = BREAKDOWNS
            .iter()
            .map(|op| {
                let dimension = op.path.rsplit('/').next().and_then(Dimension::from_name);
                assert_eq!(
                    op.name.rsplit('.').next().and_then(Dimension::from_name),
                    dimension
                );
                dimension
            })
            .collect();
        assert_eq!(named, Dimension::ALL.map(Some));
    }

    #[test]
    fn every_declared_operation_has_its_row_and_every_row_is_declared() {
        for metrics in [MetricsAccess::Loopback, MetricsAccess::Admin] {
            let table = routes(metrics);
            for op in OPERATIONS {
                let rows = table
                    .iter()
                    .filter(|r| r.vendor.is_none() && r.name == op.name && r.path == op.path)
                    .filter(|r| r.method.as_str() == op.method)
                    .count();
                assert_eq!(rows, 1, "{} {} {}", op.method, op.path, op.name);
            }
            for row in table.iter().filter(|r| r.vendor.is_none()) {
                let declared = OPERATIONS.iter().find(|op| op.name == row.name);
                let declared = declared.unwrap_or_else(|| panic!("{} is not declared", row.name));
                assert_eq!(row.path, declared.path);
                assert_eq!(row.success, declared.envelope, "{}", row.name);
            }
        }
    }
}
