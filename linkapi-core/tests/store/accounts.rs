//! Users, API keys, domains and groups.

use std::sync::Arc;

use linkapi_core::model::{ChainKind, DomainStatus, KeyId, Scope, User, UserId};
use linkapi_core::store::{NewApiKey, NewGroup, NewUser, Store, StoreError, Unique};

use crate::{T0, conformance, domain, new_domain, short_chain, tx, user};

conformance!(
    users_are_stored_listed_and_unique_by_name,
    users_are_edited_suspended_and_their_usage_counted,
    keys_are_found_by_hash_listed_per_user_and_revoked_once,
    domains_are_unique_by_host_and_change_status_and_host,
    groups_belong_to_one_user_and_count_live_chains,
);

async fn users_are_stored_listed_and_unique_by_name(store: Arc<dyn Store>) {
    let alice = tx!(store, |tx| {
        tx.insert_user(NewUser {
            name: "alice".to_owned(),
            daily_quota: Some(7),
            created_at: T0,
        })
        .await
    })
    .unwrap();
    assert_eq!(alice.name, "alice");
    assert_eq!(alice.daily_quota, Some(7));
    let bob = user(&store, "bob").await;
    assert_eq!(store.user(alice.id).await.unwrap(), Some(alice.clone()));
    assert_eq!(
        store.users().await.unwrap(),
        vec![alice.clone(), bob.clone()]
    );
    assert_eq!(store.user(UserId(bob.id.0 + 100)).await.unwrap(), None);

    let taken = tx!(store, |tx| {
        tx.insert_user(NewUser {
            name: "alice".to_owned(),
            daily_quota: None,
            created_at: T0,
        })
        .await
    });
    assert!(
        matches!(taken, Err(StoreError::Conflict(Unique::UserName))),
        "{taken:?}"
    );
    assert_eq!(store.users().await.unwrap().len(), 2);

    // A body reads what it wrote before committing.
    let seen = tx!(store, |tx| {
        let carol = tx
            .insert_user(NewUser {
                name: "carol".to_owned(),
                daily_quota: None,
                created_at: T0 + 1,
            })
            .await?;
        tx.user(carol.id).await
    })
    .unwrap();
    assert_eq!(seen.map(|u| u.name), Some("carol".to_owned()));
}

async fn users_are_edited_suspended_and_their_usage_counted(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await;
    let bob = user(&store, "bob").await;
    let alice_id = alice.id;
    tx!(store, |tx| {
        tx.insert_key(new_key(alice_id, "cccc3333", vec![Scope::All]))
            .await
    })
    .unwrap();
    tx!(store, |tx| {
        let second = tx
            .insert_key(new_key(alice_id, "dddd4444", vec![Scope::All]))
            .await?;
        tx.revoke_key(second.id, T0).await
    })
    .unwrap();
    let dom_id = domain(&store, "u.example").await.id;
    for code in ["u1", "u2", "u3"] {
        tx!(store, |tx| {
            tx.insert_chain(short_chain(alice_id, dom_id, code, T0))
                .await?;
            tx.add_creations(alice_id, T0 - T0 % 86_400, 1).await
        })
        .unwrap();
    }
    let usage = store
        .user_usage(alice.id, T0 - T0 % 86_400, T0)
        .await
        .unwrap();
    assert_eq!(
        (
            usage.chains,
            usage.created_today,
            usage.uploads,
            usage.upload_bytes
        ),
        (3, 3, 0, 0)
    );
    assert_eq!((usage.active_keys, usage.keys), (1, 2));
    // Keys expire an hour after T0 (see new_key): later, none is active.
    let later = store
        .user_usage(alice.id, T0 - T0 % 86_400, T0 + 7200)
        .await
        .unwrap();
    assert_eq!(later.active_keys, 0);
    let tomorrow = store
        .user_usage(alice.id, T0 - T0 % 86_400 + 86_400, T0)
        .await
        .unwrap();
    assert_eq!(tomorrow.created_today, 0);

    let mut edited = alice.clone();
    edited.name = "alice-2".to_owned();
    edited.daily_quota = Some(3);
    edited.suspended_at = Some(T0 + 5);
    edited.redirects_suspended = true;
    write_user(&store, &edited).await.unwrap();
    assert_eq!(store.user(alice.id).await.unwrap(), Some(edited.clone()));
    assert_eq!(
        store.users_without_redirects().await.unwrap(),
        vec![alice.id]
    );
    let grant = store.key_by_hash("cccc3333").await.unwrap().unwrap();
    assert!(grant.user_suspended);

    let mut clash = bob.clone();
    clash.name = "alice-2".to_owned();
    let taken = write_user(&store, &clash).await;
    assert!(
        matches!(taken, Err(StoreError::Conflict(Unique::UserName))),
        "{taken:?}"
    );
    // Suspended without stopping redirects: the user's links still redirect.
    edited.redirects_suspended = false;
    write_user(&store, &edited).await.unwrap();
    assert!(store.users_without_redirects().await.unwrap().is_empty());
}

/// Writes `user` over its stored row in a transaction of its own.
async fn write_user(store: &Arc<dyn Store>, user: &User) -> Result<(), StoreError> {
    let user = user.clone();
    linkapi_core::store::transact(&**store, move |tx| {
        let user = user.clone();
        Box::pin(async move { tx.update_user(&user).await })
    })
    .await
    .map(|(value, _changes)| value)
}

fn new_key(user: UserId, hash: &str, scopes: Vec<Scope>) -> NewApiKey {
    NewApiKey {
        user_id: user,
        name: format!("key {hash}"),
        prefix: hash[..4].to_owned(),
        hash: hash.to_owned(),
        scopes,
        created_at: T0,
        expires_at: Some(T0 + 3600),
    }
}

async fn keys_are_found_by_hash_listed_per_user_and_revoked_once(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let first = tx!(store, |tx| {
        tx.insert_key(new_key(alice, "aaaa1111", vec![Scope::All, Scope::Admin]))
            .await
    })
    .unwrap();
    assert_eq!(first.scopes, vec![Scope::All, Scope::Admin]);
    assert_eq!(first.revoked_at, None);
    let second = tx!(store, |tx| tx
        .insert_key(new_key(bob, "bbbb2222", vec![Scope::All]))
        .await)
    .unwrap();

    let found = store.key_by_hash("aaaa1111").await.unwrap().unwrap();
    assert_eq!(found.key, first);
    assert!(!found.user_suspended);
    assert_eq!(store.key_by_hash("nothing").await.unwrap(), None);
    assert_eq!(
        store.keys(None).await.unwrap(),
        vec![first.clone(), second.clone()]
    );
    assert_eq!(store.keys(Some(bob)).await.unwrap(), vec![second.clone()]);
    assert_eq!(store.count_keys().await.unwrap(), 2);

    let taken = tx!(store, |tx| tx
        .insert_key(new_key(bob, "aaaa1111", vec![Scope::All]))
        .await);
    assert!(
        matches!(taken, Err(StoreError::Conflict(Unique::KeyHash))),
        "{taken:?}"
    );

    let id = first.id;
    let revoked = tx!(store, |tx| tx.revoke_key(id, T0 + 10).await)
        .unwrap()
        .unwrap();
    assert_eq!(revoked.revoked_at, Some(T0 + 10));
    // Revoking again keeps the first time.
    let again = tx!(store, |tx| tx.revoke_key(id, T0 + 20).await)
        .unwrap()
        .unwrap();
    assert_eq!(again.revoked_at, Some(T0 + 10));
    assert_eq!(
        store
            .key_by_hash("aaaa1111")
            .await
            .unwrap()
            .unwrap()
            .key
            .revoked_at,
        Some(T0 + 10)
    );
    let missing = KeyId(second.id.0 + 100);
    assert_eq!(
        tx!(store, |tx| tx.revoke_key(missing, T0).await).unwrap(),
        None
    );
}

async fn domains_are_unique_by_host_and_change_status_and_host(store: Arc<dyn Store>) {
    let first = domain(&store, "a.example").await;
    assert_eq!(first.host, "a.example");
    assert_eq!(first.status, DomainStatus::Effective);
    let owner = user(&store, "owner").await.id;
    let private = tx!(store, |tx| {
        let mut new = new_domain("b.example:8080");
        new.shared = false;
        new.user_id = Some(owner);
        tx.insert_domain(new).await
    })
    .unwrap();
    assert_eq!(private.user_id, Some(owner));
    assert!(!private.shared);
    assert_eq!(
        store.domains().await.unwrap(),
        vec![first.clone(), private.clone()]
    );

    let taken = tx!(store, |tx| tx.insert_domain(new_domain("a.example")).await);
    assert!(
        matches!(taken, Err(StoreError::Conflict(Unique::DomainHost))),
        "{taken:?}"
    );

    let id = first.id;
    let changed = tx!(store, |tx| tx
        .set_domain_status(id, DomainStatus::NotEffective)
        .await)
    .unwrap()
    .unwrap();
    assert_eq!(changed.status, DomainStatus::NotEffective);
    assert_eq!(
        store.domains().await.unwrap()[0].status,
        DomainStatus::NotEffective
    );
    let missing = linkapi_core::model::DomainId(private.id.0 + 100);
    let none = tx!(store, |tx| tx
        .set_domain_status(missing, DomainStatus::Effective)
        .await);
    assert_eq!(none.unwrap(), None);

    // A new host and scheme, refused when another domain has that host.
    tx!(store, |tx| tx
        .set_domain_host(id, "c.example", linkapi_core::model::Scheme::Https)
        .await)
    .unwrap();
    let renamed = store.domains().await.unwrap()[0].clone();
    assert_eq!((renamed.id, renamed.host.as_str()), (id, "c.example"));
    assert_eq!(renamed.scheme, linkapi_core::model::Scheme::Https);
    let clash = tx!(store, |tx| tx
        .set_domain_host(id, "b.example:8080", linkapi_core::model::Scheme::Http)
        .await);
    assert!(
        matches!(clash, Err(StoreError::Conflict(Unique::DomainHost))),
        "{clash:?}"
    );
    assert_eq!(store.domains().await.unwrap()[0].host, "c.example");
}

async fn groups_belong_to_one_user_and_count_live_chains(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let d = domain(&store, "g.example").await.id;
    let group = |owner: UserId, name: &'static str| NewGroup {
        user_id: owner,
        name: name.to_owned(),
        chain_type: ChainKind::Short,
        created_at: T0,
    };
    let mine = tx!(store, |tx| tx.insert_group(group(alice, "team")).await).unwrap();
    assert_eq!(mine.chain_count, 0);
    // Names are unique per user, not across users.
    let theirs = tx!(store, |tx| tx.insert_group(group(bob, "team")).await).unwrap();
    let taken = tx!(store, |tx| tx.insert_group(group(alice, "team")).await);
    assert!(
        matches!(taken, Err(StoreError::Conflict(Unique::GroupName))),
        "{taken:?}"
    );

    assert_eq!(
        store.group(alice, mine.id).await.unwrap(),
        Some(mine.clone())
    );
    assert_eq!(store.group(alice, theirs.id).await.unwrap(), None);
    assert_eq!(store.groups(bob).await.unwrap(), vec![theirs.clone()]);

    let gid = mine.id;
    for code in ["g1", "g2"] {
        tx!(store, |tx| {
            let mut chain = short_chain(alice, d, code, T0);
            chain.group_ids = vec![gid];
            tx.insert_chain(chain).await
        })
        .unwrap();
    }
    assert_eq!(
        store.group(alice, gid).await.unwrap().unwrap().chain_count,
        2
    );
    let deleted = store.chains_by_code(alice, "g1").await.unwrap()[0].id;
    tx!(store, |tx| tx.delete_chain(alice, deleted, T0 + 5).await).unwrap();
    assert_eq!(store.groups(alice).await.unwrap()[0].chain_count, 1);
}
