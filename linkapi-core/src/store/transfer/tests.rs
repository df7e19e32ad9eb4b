//! Tests of the copy from SQLite to PostgreSQL.

use super::*;

#[test]
fn checksums_do_not_depend_on_row_order_but_on_every_value() {
    let a = [Cell::Int(Some(1)), Cell::Text(Some("x".into()))];
    let b = [Cell::Int(Some(2)), Cell::Text(None)];
    let (mut one, mut other) = (Tally::default(), Tally::default());
    one.add(&a);
    one.add(&b);
    other.add(&b);
    other.add(&a);
    assert_eq!(one, other);
    let mut changed = Tally::default();
    changed.add(&a);
    changed.add(&[Cell::Int(Some(2)), Cell::Text(Some(String::new()))]);
    assert_ne!(one, changed, "NULL and an empty string differ");
    let mut shifted = Tally::default();
    shifted.add(&[Cell::Int(Some(1)), Cell::Text(Some("x".into()))]);
    shifted.add(&[Cell::Bool(Some(true)), Cell::Text(None)]);
    assert_ne!(one, shifted, "a boolean is not the integer 1");
}
