use super::*;

const MIB: u64 = 1 << 20;

fn user(n: i64) -> Party {
    Party::User(UserId(n))
}

/// What the pool's ledger says is held in all, and by `party`, in MiB.
fn held(pool: &Pool, party: Party) -> (u64, u64) {
    let ledger = pool.ledger.lock().unpoisoned();
    (ledger.held / 1024, ledger.held_by(party) / 1024)
}

#[tokio::test(start_paused = true)]
async fn a_party_uses_what_is_free_but_leaves_room_for_a_newcomer() {
    // 64 MiB, of which a party may hold 32; the headroom is 16.
    let pool = Pool::new(64 * MIB, 32 * MIB, Kind::Users);
    let a = pool
        .admit(user(1), 20 * MIB)
        .await
        .expect("alone, within its cap");
    // Alone, its share is the whole pool: it takes more while the headroom stays free.
    let mut b = pool.admit(user(1), 10 * MIB).await.expect("beyond nothing");
    // At its cap: refused, 429.
    let refused = pool.admit(user(1), 4 * MIB).await;
    assert!(matches!(refused, Err(Error::KeyBusy { .. })), "{refused:?}");
    // A second user holds 30 MiB: user 1 is beyond its share (32 of 64 with two parties is
    // not beyond; add a third party to make the share 21).
    let c = pool
        .admit(user(2), 16 * MIB)
        .await
        .expect("within its share");
    let d = pool
        .admit(user(3), 1)
        .await
        .expect("a small request always fits");
    assert_eq!(held(&pool, user(1)), (46, 30));
    // User 2, beyond its share of 21, may not take the last 16 MiB...
    let refused = pool.admit(user(2), 8 * MIB).await;
    assert!(matches!(refused, Err(Error::KeyBusy { .. })), "{refused:?}");
    // ... which a newcomer within its share gets at once.
    let e = pool
        .admit(user(4), 12 * MIB)
        .await
        .expect("within its share");
    // Growing is taking more under the same rules.
    let grown = b.grow(14 * MIB).await;
    assert!(matches!(grown, Err(Error::KeyBusy { .. })), "{grown:?}");
    drop((a, c, d, e));
    b.grow(14 * MIB).await.expect("room again");
    assert_eq!(held(&pool, user(1)), (14, 14));
    drop(b);
    assert_eq!(held(&pool, user(1)), (0, 0));
    assert!(pool.ledger.lock().unpoisoned().parties.is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_waiting_request_is_served_before_those_of_parties_holding_more() {
    let pool = Pool::new(64 * MIB, 64 * MIB, Kind::Users);
    let big = pool.admit(user(1), 40 * MIB).await.expect("alone");
    let more = pool.admit(user(1), 20 * MIB).await.expect("alone");
    // User 1 wants more, then user 2 wants 20 MiB: neither fits while user 1 holds 60.
    let first = tokio::spawn({
        let pool = pool.clone();
        async move { pool.admit(user(1), 8 * MIB).await }
    });
    tokio::task::yield_now().await;
    let second = tokio::spawn({
        let pool = pool.clone();
        async move { pool.admit(user(2), 20 * MIB).await }
    });
    tokio::task::yield_now().await;
    assert_eq!(pool.ledger.lock().unpoisoned().waiting.len(), 2);
    drop(more);
    // User 2, holding less, is served first although it came second; user 1 still waits.
    let second = second.await.expect("ran").expect("granted");
    assert_eq!(held(&pool, user(2)), (60, 20));
    assert_eq!(pool.ledger.lock().unpoisoned().waiting.len(), 1);
    drop(big);
    let first = first.await.expect("ran").expect("granted");
    assert_eq!(held(&pool, user(1)), (28, 8));
    drop((first, second));
    assert_eq!(held(&pool, user(2)), (0, 0));
}

#[tokio::test(start_paused = true)]
async fn a_request_that_waits_too_long_is_refused_and_a_dropped_one_leaks_nothing() {
    let pool = Pool::new(64 * MIB, 64 * MIB, Kind::Users);
    let all = pool.admit(user(1), 64 * MIB).await.expect("alone");
    // Another user holding nothing: the instance is full, 503, after the wait.
    let started = tokio::time::Instant::now();
    let refused = pool.admit(user(2), 2 * MIB).await;
    assert!(
        matches!(refused, Err(Error::Overloaded { .. })),
        "{refused:?}"
    );
    assert_eq!(started.elapsed(), WAIT);
    // A waiting request dropped (its client went away) leaves the queue...
    let gone = tokio::spawn({
        let pool = pool.clone();
        async move { pool.admit(user(2), 2 * MIB).await }
    });
    tokio::task::yield_now().await;
    gone.abort();
    let _ = gone.await;
    assert!(pool.ledger.lock().unpoisoned().waiting.is_empty());
    drop(all);
    assert_eq!(held(&pool, user(2)), (0, 0));
    assert!(pool.ledger.lock().unpoisoned().parties.is_empty());
}

#[tokio::test(start_paused = true)]
async fn bodies_without_a_key_share_their_pool_by_address() {
    let budget = Budget::new(256 * MIB, 128 * MIB);
    let one = Party::Address("192.0.2.1".parse().expect("address"));
    let other = Party::Address("192.0.2.2".parse().expect("address"));
    let held_one = budget
        .keyless
        .admit(one, ADDRESS_BYTES)
        .await
        .expect("its share");
    let refused = budget.keyless.admit(one, 1).await;
    assert!(
        matches!(refused, Err(Error::Overloaded { .. })),
        "{refused:?}"
    );
    budget
        .keyless
        .admit(other, 1)
        .await
        .expect("another address");
    // The users' pool is another pool.
    budget
        .users
        .admit(user(1), 128 * MIB)
        .await
        .expect("its own pool");
    drop(held_one);
}

#[tokio::test(start_paused = true)]
async fn a_party_whose_requests_all_wait_on_its_own_cap_has_one_refused_at_once() {
    // A party may hold 32 MiB; its three requests hold 28 and each wants 8 more.
    let pool = Pool::new(64 * MIB, 32 * MIB, Kind::Users);
    let mut first = pool.admit(user(1), 12 * MIB).await.expect("alone");
    let mut second = pool.admit(user(1), 12 * MIB).await.expect("within its cap");
    let mut third = pool.admit(user(1), 4 * MIB).await.expect("within its cap");
    let first = tokio::spawn(async move { first.grow(20 * MIB).await.map(|()| first) });
    tokio::task::yield_now().await;
    let second = tokio::spawn(async move { second.grow(20 * MIB).await.map(|()| second) });
    tokio::task::yield_now().await;
    assert_eq!(pool.ledger.lock().unpoisoned().waiting.len(), 2);
    // The third would wait on the other two, which wait on it: it is refused at once, not
    // after the wait, and what it held lets the first go on.
    let started = tokio::time::Instant::now();
    let refused = third.grow(12 * MIB).await;
    assert!(matches!(refused, Err(Error::KeyBusy { .. })), "{refused:?}");
    assert_eq!(started.elapsed(), Duration::ZERO);
    drop(third);
    let first = first.await.expect("ran").expect("granted");
    assert_eq!(held(&pool, user(1)), (32, 32));
    // The second goes on once the first is done.
    drop(first);
    let second = second.await.expect("ran").expect("granted");
    assert_eq!(held(&pool, user(1)), (20, 20));
    drop(second);
    assert!(pool.ledger.lock().unpoisoned().parties.is_empty());
}
