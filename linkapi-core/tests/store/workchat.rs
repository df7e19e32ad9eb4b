//! Jump-page templates and work-chat data.

use std::sync::Arc;

use linkapi_core::model::{ChainKind, JumpSettings, TemplateId, TemplateKind, Transfer};
use linkapi_core::store::{AssemblyInput, NewTemplate, Store, TemplatePatch, TransferQuery};

use crate::{T0, conformance, domain, short_chain, tx, user};

conformance!(
    custom_templates_are_edited_and_retired_but_built_in_ones_are_not,
    assembly_entries_and_transfers_are_upserted_by_their_keys,
);

async fn custom_templates_are_edited_and_retired_but_built_in_ones_are_not(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let all = store.templates(None, 0, 1000).await.unwrap();
    let built_in: Vec<_> = all
        .items
        .iter()
        .filter(|t| t.kind == TemplateKind::BuiltIn)
        .collect();
    assert!(
        !built_in.is_empty(),
        "the schema brings the built-in templates"
    );
    assert_eq!(all.total as usize, all.items.len());
    let first_built_in = built_in[0].id;

    let new = |owner, name: &str| NewTemplate {
        user_id: owner,
        name: name.to_owned(),
        style: "card".to_owned(),
        thumb: String::new(),
        body: "<p>{{ title }}</p>".to_owned(),
        created_at: T0,
    };
    let shared = tx!(store, |tx| tx.insert_template(new(None, "shared")).await).unwrap();
    assert_eq!(shared.kind, TemplateKind::Custom);
    let own = tx!(store, |tx| tx
        .insert_template(new(Some(alice), "alice's"))
        .await)
    .unwrap();
    assert_eq!(store.template(own.id).await.unwrap(), Some(own.clone()));

    let offered = |user| {
        let store = store.clone();
        async move {
            let page = store.templates(Some(user), 0, 1000).await.unwrap();
            page.items.iter().map(|t| t.id).collect::<Vec<TemplateId>>()
        }
    };
    assert!(offered(alice).await.contains(&own.id));
    assert!(
        !offered(bob).await.contains(&own.id),
        "a user's own template is offered to them alone"
    );
    assert!(offered(bob).await.contains(&shared.id));

    let id = own.id;
    let edited = tx!(store, |tx| {
        let patch = TemplatePatch {
            name: Some("renamed".to_owned()),
            ..TemplatePatch::default()
        };
        tx.update_template(id, &patch, T0 + 5).await
    })
    .unwrap()
    .unwrap();
    assert_eq!(edited.name, "renamed");
    assert_eq!(edited.body, own.body);
    assert_eq!(edited.updated_at, T0 + 5);
    let untouched = tx!(store, |tx| {
        tx.update_template(first_built_in, &TemplatePatch::default(), T0 + 5)
            .await
    });
    assert_eq!(
        untouched.unwrap(),
        None,
        "built-in templates are not edited"
    );

    let retired = tx!(store, |tx| tx.retire_template(id, T0 + 9).await)
        .unwrap()
        .unwrap();
    assert_eq!(retired.retired_at, Some(T0 + 9));
    assert_eq!(
        tx!(store, |tx| tx.retire_template(id, T0 + 10).await).unwrap(),
        None
    );
    let patched = tx!(store, |tx| tx
        .update_template(id, &TemplatePatch::default(), T0)
        .await);
    assert_eq!(patched.unwrap(), None, "a retired template is not edited");
    assert!(
        !offered(alice).await.contains(&id),
        "retired templates are not offered"
    );
    assert_eq!(
        store.template(id).await.unwrap().unwrap().retired_at,
        Some(T0 + 9)
    );
    assert_eq!(
        tx!(store, |tx| tx.retire_template(first_built_in, T0).await).unwrap(),
        None
    );

    let d = domain(&store, "t.example").await.id;
    let shared_id = shared.id;
    tx!(store, |tx| {
        let mut chain = short_chain(alice, d, "uses", T0);
        chain.kind = ChainKind::Messaging;
        chain.jump = Some(JumpSettings {
            template_id: shared_id,
            ..JumpSettings::default()
        });
        tx.insert_chain(chain).await
    })
    .unwrap();
    tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "short", T0))
        .await)
    .unwrap();
    assert_eq!(
        store.templates_in_use(alice).await.unwrap(),
        vec![shared_id]
    );
    assert!(store.templates_in_use(bob).await.unwrap().is_empty());
}

fn transfer(user: linkapi_core::model::UserId, external: &str, status: i64) -> Transfer {
    Transfer {
        id: 0,
        user_id: user,
        corp_id: "corp".to_owned(),
        handover_userid: "hand".to_owned(),
        takeover_userid: format!("take-{external}"),
        external_userid: external.to_owned(),
        customer_name: format!("customer {external}"),
        status,
        takeover_time: T0,
        errcode: 0,
        reason: String::new(),
    }
}

async fn assembly_entries_and_transfers_are_upserted_by_their_keys(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let entry = move |link: &str, name: &str, invalid| AssemblyInput {
        user_id: alice,
        link_id: link.to_owned(),
        link_name: name.to_owned(),
        url: format!("https://work.example/{link}"),
        auth_status: "ok".to_owned(),
        invalid,
        created_at: T0,
    };
    let first = tx!(store, |tx| tx
        .put_assembly(&entry("l1", "first", false))
        .await)
    .unwrap();
    assert_eq!(first.use_status, 0);
    let again = tx!(store, |tx| tx
        .put_assembly(&entry("l1", "renamed", true))
        .await)
    .unwrap();
    assert_eq!(again.id, first.id, "the same link id changes the entry");
    assert_eq!(again.link_name, "renamed");
    assert_eq!(again.use_status, 2, "marked invalid");
    let second = tx!(store, |tx| tx
        .put_assembly(&entry("l2", "second", false))
        .await)
    .unwrap();

    // A live work-chat chain using an entry marks it used.
    let d = domain(&store, "w.example").await.id;
    let used = second.id;
    tx!(store, |tx| {
        let mut chain = short_chain(alice, d, "wc", T0);
        chain.kind = ChainKind::WorkChat;
        chain.jump = Some(JumpSettings {
            customer_id: Some(used),
            ..JumpSettings::default()
        });
        tx.insert_chain(chain).await
    })
    .unwrap();
    assert_eq!(
        store
            .assembly(alice, used)
            .await
            .unwrap()
            .unwrap()
            .use_status,
        1
    );
    assert_eq!(store.assembly(bob, used).await.unwrap(), None);
    let page = store.assemblies(alice, 0, 1).await.unwrap();
    assert_eq!(page.total, 2);
    assert_eq!(
        page.items.iter().map(|a| a.id).collect::<Vec<_>>(),
        [first.id]
    );

    let t1 = tx!(store, |tx| tx
        .put_transfer(&transfer(alice, "e1", 1), T0)
        .await)
    .unwrap();
    let t2 = tx!(store, |tx| tx
        .put_transfer(&transfer(alice, "e2", 1), T0)
        .await)
    .unwrap();
    let replaced = tx!(store, |tx| tx
        .put_transfer(&transfer(alice, "e1", 2), T0 + 1)
        .await)
    .unwrap();
    assert_eq!(
        replaced.id, t1.id,
        "the same corp, handover user and customer keep their row"
    );
    assert_eq!(replaced.status, 2);
    tx!(store, |tx| tx
        .put_transfer(&transfer(bob, "e1", 1), T0)
        .await)
    .unwrap();

    let query = |after, takeover: &str| TransferQuery {
        user_id: alice,
        corp_id: "corp".to_owned(),
        handover_userid: String::new(),
        takeover_userid: takeover.to_owned(),
        after,
        limit: 10,
    };
    let all = store.transfers(&query(0, "")).await.unwrap();
    assert_eq!(all, vec![replaced.clone(), t2.clone()]);
    assert_eq!(
        store.transfers(&query(t1.id, "")).await.unwrap(),
        vec![t2.clone()]
    );
    assert_eq!(
        store.transfers(&query(0, "take-e2")).await.unwrap(),
        vec![t2]
    );
}
