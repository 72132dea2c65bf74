//! The unit tests of reading cells: numbers and yes/no as people type them, and the rules'
//! words.

use super::*;
use crate::support::fields::parse_number_text;

#[test]
fn numbers_from_text_as_people_type_them() {
    assert_eq!(parse_number_text("1,000"), Some(1000.0));
    assert_eq!(parse_number_text("20%"), Some(0.2));
    assert_eq!(parse_number_text(" 24 "), Some(24.0));
    assert_eq!(parse_number_text("¥6.5"), Some(6.5));
    assert_eq!(parse_number_text("abc"), None);
    assert_eq!(parse_number_text("1e999"), None);
}

#[test]
fn booleans_in_both_languages() {
    for (t, want) in [
        ("TRUE", true),
        ("no", false),
        ("y", true),
        ("是", true),
        ("否", false),
        ("0", false),
    ] {
        assert_eq!(parse_bool(&Raw::Text(t.to_string())), Some(want), "{t}");
    }
    assert_eq!(parse_bool(&Raw::Number(1.0)), Some(true));
    assert_eq!(parse_bool(&Raw::Text("maybe".into())), None);
}

#[test]
fn rules_describe_themselves() {
    assert_eq!(
        Rule::whole(1.0, 1e6).describe(),
        "a whole number from 1 to 1000000"
    );
    assert_eq!(Rule::positive().describe(), "a number > 0");
    assert!(!Rule::whole(1.0, 10.0).accepts(2.5));
    assert!(Rule::range(0.0, 744.0).accepts(744.0));
    assert!(!Rule::range(0.0, 744.0).accepts(1000.0));
}
