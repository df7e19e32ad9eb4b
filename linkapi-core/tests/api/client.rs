//! The typed client (feature `client`) against a real server: every operation, and errors
//! carrying status, short name and message from both envelopes.

use linkapi_core::client::{Client, ClientError};
use linkapi_core::wire::{DomainRefs, LenientInt, admin, compat, primary};

use crate::support::{ADMIN_KEY, TestServer};

fn client(server: &TestServer, key: &str) -> Client {
    Client::new(&server.url(""), key).unwrap()
}

#[tokio::test]
async fn primary_and_admin_operations() {
    let server = TestServer::start().await;
    let admin = client(&server, ADMIN_KEY);
    let user = admin
        .create_user(&admin::CreateUser {
            name: "lib".into(),
            daily_quota: None,
        })
        .await
        .unwrap();
    let key = admin
        .create_key(&admin::CreateKey {
            user_id: user.id,
            scopes: [
                "chains:read",
                "chains:write",
                "groups:read",
                "groups:write",
                "domains:read",
            ]
            .map(String::from)
            .to_vec(),
            name: Some("lib".into()),
            expires_at: None,
        })
        .await
        .unwrap();
    assert_eq!(admin.users().await.unwrap().len(), 2);
    assert_eq!(admin.keys(Some(user.id)).await.unwrap()[0].id, key.key.id);

    let lib = client(&server, &key.api_key);
    let group = lib
        .create_group(&primary::CreateGroup {
            name: "g".into(),
            chain_type: 1,
        })
        .await
        .unwrap();
    let chain = lib
        .create_chain(&primary::CreateChain {
            target_url: "https://example.com".into(),
            group_id: Some(group.id),
            code: Some("lib1".into()),
            ..primary::CreateChain::default()
        })
        .await
        .unwrap();
    assert_eq!(lib.chain(chain.id).await.unwrap().code, "lib1");
    let page = lib
        .list_chains(&primary::ListChains::default())
        .await
        .unwrap();
    assert_eq!(page.total, 1);
    let filtered = lib
        .list_chains(&primary::ListChains {
            q: Some("nothing".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(filtered.total, 0);
    let updated = lib
        .update_chain(
            chain.id,
            &primary::UpdateChain {
                chain_title: Some("t".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(updated.chain_title, "t");
    assert_eq!(lib.groups().await.unwrap()[0].chain_count, 1);
    assert_eq!(lib.group(group.id).await.unwrap().chain_count, 1);
    assert_eq!(lib.domains().await.unwrap().len(), 1);
    assert!(lib.delete_chain(chain.id).await.unwrap().deleted);

    let domain = admin
        .create_domain(&admin::CreateDomain {
            domain: "lib.test".into(),
            scheme: "https".into(),
            shared: Some(true),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        admin.set_domain_status(domain.id, 99).await.unwrap().status,
        99
    );
    assert_eq!(admin.admin_domains().await.unwrap().len(), 2);
    assert_eq!(admin.revoke_key(key.key.id).await.unwrap().state, "revoked");

    // A revoked key: 401 with the primary envelope's short name.
    match lib.groups().await {
        Err(ClientError::Api {
            status: 401, code, ..
        }) => assert_eq!(code, "invalid_api_key"),
        other => panic!("expected 401, got {other:?}"),
    }
}

#[tokio::test]
async fn compatibility_operations() {
    let server = TestServer::start().await;
    let c = client(&server, ADMIN_KEY);
    let group = c
        .compat_create_group(&compat::CreateGroup {
            name: "cg".into(),
            chain_type: None,
        })
        .await
        .unwrap();
    let group_id: i64 = group.group_id.parse().unwrap();
    let domain = c.compat_domains().await.unwrap().domain_list[0].id;
    let created = c
        .compat_create_chain(&compat::CreateChain {
            target_url: "https://example.com/c".into(),
            chain_title: Some("compat".into()),
            group_id: Some(LenientInt(group_id)),
            domain: Some(DomainRefs::from(vec![domain])),
            valid_time: Some(linkapi_core::wire::FlexibleTime(
                crate::support::START + 3600,
            )),
            code: Some("cc1".into()),
        })
        .await
        .unwrap();
    assert_eq!(created.chain, "cc1");
    assert_eq!(created.created_today, 1);
    let info = c
        .compat_chain_info(&compat::ChainRef {
            chain: "cc1".into(),
            domain: None,
        })
        .await
        .unwrap();
    assert_eq!(info.valid_time, "2027-01-15 09:00:00");
    let edited = c
        .compat_edit_chain(&compat::EditChain {
            chain: compat::ChainRef {
                chain: "cc1".into(),
                domain: None,
            },
            target_url: Some("https://example.com/d".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(edited.target_url, "https://example.com/d");
    let list = c
        .compat_list_chains(&compat::ListChains::default())
        .await
        .unwrap();
    assert_eq!((list.total, list.list_num), (1, 1));
    assert_eq!(c.compat_groups().await.unwrap().list[0].chain_num, 1);
    c.compat_delete_chains(&compat::DeleteChains {
        chains: vec!["cc1".into()],
        domain: None,
    })
    .await
    .unwrap();

    // Compatibility errors have no short name on the wire; the client derives it.
    match c
        .compat_chain_info(&compat::ChainRef {
            chain: "cc1".into(),
            domain: None,
        })
        .await
    {
        Err(ClientError::Api {
            status: 404,
            code,
            message,
            ..
        }) => {
            assert_eq!(code, "not_found");
            assert!(message.contains("not found"), "{message}");
        }
        other => panic!("expected 404, got {other:?}"),
    }
}

#[tokio::test]
async fn transport_failures_are_told_apart() {
    let unreachable = Client::new("http://127.0.0.1:1", ADMIN_KEY).unwrap();
    assert!(matches!(
        unreachable.groups().await,
        Err(ClientError::Connect { .. })
    ));
    assert!(matches!(
        Client::new("ftp://x", "k"),
        Err(ClientError::InvalidBase(_))
    ));
    assert!(matches!(
        Client::new("not a url", "k"),
        Err(ClientError::InvalidBase(_))
    ));
    let debug = format!("{unreachable:?}");
    assert!(
        !debug.contains(ADMIN_KEY),
        "the key never shows in Debug: {debug}"
    );
}

#[tokio::test]
async fn conversions_report_and_list() {
    let server = TestServer::start().await;
    let (_, key) = server
        .user_with_key(
            "converter",
            &["chains:write", "conversions:read", "conversions:write"],
        )
        .await;
    let client = client(&server, &key);
    let chain = client
        .create_chain(&primary::CreateChain {
            target_url: "https://shop.example/".into(),
            code: Some("buy".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    let report = compat::ConversionReport {
        chain: Some("buy".into()),
        conv_type: "purchase".into(),
        out_id: Some("o-1".into()),
        value_cents: Some(LenientInt(500)),
        ..Default::default()
    };
    let first = client.report_conversion("meta", &report).await.unwrap();
    assert!(!first.duplicate);
    assert_eq!(first.chain_id, chain.id);
    let again = client.report_conversion("meta", &report).await.unwrap();
    assert!(again.duplicate);
    assert_eq!(again.event_id, first.event_id);
    let page = client
        .conversions(chain.id, &primary::ListConversions::default())
        .await
        .unwrap();
    assert_eq!(page.total, 1);
    assert_eq!(page.list[0].value_cents, Some(500));
    assert_eq!(page.list[0].ad_platform, "meta");
    // Errors of this operation come in the primary envelope, with their short name.
    let missing = compat::ConversionReport {
        out_id: None,
        ..report
    };
    match client.report_conversion("meta", &missing).await {
        Err(ClientError::Api {
            status: 400, code, ..
        }) => assert_eq!(code, "missing_out_id"),
        other => panic!("{other:?}"),
    }
}

/// Operations for browsers, not programs: a short link, hosted files, the favicon, the root page.
const NOT_FOR_THE_CLIENT: [&str; 4] = ["redirect", "files.get", "favicon", "home"];

#[tokio::test]
async fn the_client_calls_every_operation_by_the_servers_method_and_path() {
    let server = TestServer::start().await;
    let document = client(&server, ADMIN_KEY).openapi().await.unwrap();
    // (method, path) → operation name, as the server's route table has them.
    let mut served = std::collections::BTreeMap::new();
    let mut vendor_names = Vec::new();
    for (path, methods) in document["paths"].as_object().unwrap() {
        for (method, operation) in methods.as_object().unwrap() {
            // The vendor's names are the operations they alias, which the client calls by
            // their own paths: they must alias one that is served.
            if let Some(same) = operation.get("x-same-operation-as") {
                vendor_names.push((path.clone(), same.as_str().unwrap().to_owned()));
                continue;
            }
            let id = operation["operationId"].as_str().unwrap();
            let name = id.rsplit_once('.').unwrap().0.to_owned();
            served.insert((method.to_ascii_uppercase(), path.clone()), name);
        }
    }
    for op in linkapi_core::client::OPERATIONS {
        let found = served.get(&(op.method.to_owned(), op.path.to_owned()));
        assert_eq!(
            found.map(String::as_str),
            Some(op.name),
            "the client calls {} {} as {}, which the server does not serve",
            op.method,
            op.path,
            op.name
        );
    }
    let ids: std::collections::BTreeSet<String> = served
        .iter()
        .map(|((method, _), name)| format!("{name}.{}", method.to_ascii_lowercase()))
        .collect();
    assert!(!vendor_names.is_empty());
    for (path, same) in &vendor_names {
        assert!(
            ids.contains(same),
            "{path} aliases {same}, which is not served"
        );
    }
    // The operations are declared once, and the route table is built from them; what is
    // left to hold is that the client has a method for each operation meant for programs,
    // a method naming its constant.
    let sources = [
        include_str!("../../src/client/mod.rs"),
        include_str!("../../src/client/primary.rs"),
        include_str!("../../src/client/compat.rs"),
        include_str!("../../src/client/admin.rs"),
        include_str!("../../src/client/webhooks.rs"),
    ];
    for name in served.values() {
        let used = format!("op::{}", linkapi_core::wire::operations::constant_of(name));
        assert!(
            sources.iter().any(|source| source.contains(&used))
                || NOT_FOR_THE_CLIENT.contains(&name.as_str()),
            "the server's operation {name} has no client method"
        );
    }
}

#[tokio::test]
async fn the_servers_own_operations_and_the_remaining_lists_answer_through_the_client() {
    let server = TestServer::start().await;
    let admin = client(&server, ADMIN_KEY);
    assert_eq!(admin.health().await.unwrap().status, "ok");
    assert_eq!(admin.ready().await.unwrap().status, "ready");
    assert!(admin.metrics().await.unwrap().contains("# TYPE"));
    let templates = admin
        .compat_templates(&compat::ListTemplates::default())
        .await
        .unwrap();
    let first = templates
        .list
        .first()
        .expect("built-in templates are offered")
        .id;
    let page = admin
        .template_preview(first, &admin::PreviewTemplate::default())
        .await
        .unwrap();
    assert!(page.contains("<html"), "{page}");
    let listed = admin
        .compat_list_wx_chains(&compat::ListWxChains::default())
        .await
        .unwrap();
    assert_eq!(listed.total, 0);
    let refused = admin
        .compat_upload_images(vec![("notes.txt".to_owned(), b"not an image".to_vec())])
        .await
        .unwrap();
    assert!(refused.upload_success_data.is_empty());
    assert_eq!(
        refused.upload_fail_data.len(),
        1,
        "{:?}",
        refused.upload_fail_data
    );
}

#[tokio::test]
async fn webhook_operations() {
    let server = TestServer::start().await;
    let (_, key) = server
        .user_with_key("hooks", &["webhooks:read", "webhooks:write"])
        .await;
    let hooks = client(&server, &key);
    // A receiver that is not there: the test event's attempt fails and is listed.
    let created = hooks
        .create_webhook(&primary::CreateWebhook {
            url: "http://127.0.0.1:1/hooks".into(),
            events: vec![primary::WebhookEvent::ChainCreated],
            description: Some("ci".into()),
        })
        .await
        .unwrap();
    assert!(
        created
            .secret
            .as_deref()
            .is_some_and(|s| s.starts_with("whsec_"))
    );
    assert_eq!(hooks.webhooks().await.unwrap().len(), 1);
    let read = hooks.webhook(created.id).await.unwrap();
    assert_eq!(
        (read.secret, read.description.as_deref()),
        (None, Some("ci"))
    );
    let edited = hooks
        .update_webhook(
            created.id,
            &primary::UpdateWebhook {
                events: Some(vec![primary::WebhookEvent::ChainDeleted]),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(edited.events, [primary::WebhookEvent::ChainDeleted]);
    let test = hooks.test_webhook(created.id).await.unwrap();
    let mut attempts = primary::DeliveryPage {
        list: Vec::new(),
        total: 0,
        page: 1,
        page_size: 20,
    };
    for _ in 0..100 {
        attempts = hooks
            .webhook_deliveries(created.id, &primary::ListDeliveries::default())
            .await
            .unwrap();
        if attempts.total > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(attempts.list[0].event_id, test.event_id);
    assert!(!attempts.list[0].ok && attempts.list[0].error.is_some());
    let rotated = hooks.rotate_webhook_secret(created.id).await.unwrap();
    assert_ne!(rotated.secret, created.secret);
    assert!(hooks.delete_webhook(created.id).await.unwrap().deleted);
    assert!(matches!(
        hooks.webhook(created.id).await,
        Err(ClientError::Api { status: 404, .. })
    ));
}
