//! The unit tests of reading logs: each format's header and rows, and the messages of what is
//! wrong in them.

use super::*;
use crate::support::fields::Split;

/// A buffer for a row's unquoted fields, kept for the test's length.
fn split() -> &'static mut Split {
    Box::leak(Box::default())
}

fn layout(h: &str) -> Layout {
    Layout::from_header(h.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn an_nvidia_smi_row_with_units_reads_its_figures() {
    let l = layout(
        "timestamp, index, uuid, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]",
    );
    assert_eq!(l.kind, Kind::Smi);
    let r = l
        .row(b"2026/11/02 10:00:00.123, 0, GPU-5f1c, NVIDIA A100-SXM4-80GB, 80 %, 40536 MiB, 81920 MiB", split())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.index, Some(&b"0"[..]));
    assert_eq!(r.uuid, Some(&b"GPU-5f1c"[..]));
    assert_eq!(
        (r.util, r.memory, r.total),
        (Some(80.0), Some(40536.0), Some(81920.0))
    );
    assert!(!r.mixed_units);
    // Without a unit under a header that gives one: read, and flagged.
    let r = l
        .row(
            b"2026/11/02 10:00:01.123, 0, GPU-5f1c, A100, 80, 40536 MiB, 81920 MiB",
            split(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(r.mixed_units);
}

#[test]
fn nounits_any_order_and_na_values() {
    let l = layout("utilization.gpu, memory.used, index, timestamp");
    let r = l
        .row(b"12, [N/A], 3, 2026/11/02 10:00:00.000", split())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (r.util, r.memory, r.index),
        (Some(12.0), None, Some(&b"3"[..]))
    );
    assert!(l
        .row(b"12 %, 5, 3, 2026/11/02 10:00:00.000", split())
        .is_ok_and(|r| r.mixed_units));
}

#[test]
fn a_dmon_header_with_date_time_and_fb() {
    let l = layout("#Date       Time        gpu     sm    mem    enc    dec    jpg    ofa     fb   bar1   ccpm ");
    assert_eq!(
        (l.kind, l.timing, l.memory),
        (Kind::Dmon, Timing::Stamp, true)
    );
    let r = l
        .row(b" 20261102   10:00:00      1     80     12      0      0      0      0  40960      2      0 ", split())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (r.util, r.memory, r.index),
        (Some(80.0), Some(40960.0), Some(&b"1"[..]))
    );
    assert!(Layout::is_dmon_header(b"Date Time gpu"));
    assert!(!Layout::is_dmon_header(b"YYYYMMDD   HH:MM:SS    Idx"));
    let plain = layout("# gpu   pwr gtemp mtemp    sm   mem   enc   dec  mclk  pclk");
    assert_eq!((plain.timing, plain.memory), (Timing::Untimed, false));
}

#[test]
fn headers_that_lack_what_the_figures_need_say_so() {
    let e = Layout::from_header(b"timestamp, index, memory.used [MiB]").err();
    assert!(e.is_some_and(|e| e.contains("no utilization.gpu column")));
    let e = Layout::from_header(b"# gpu   pwr gtemp").err();
    assert!(e.is_some_and(|e| e.contains("no sm column")));
    let e = Layout::from_header(b"2026/11/02 10:00:00.123, 0, 80 %").err();
    assert!(e.is_some_and(|e| e.contains("needs its header line")));
    let e = Layout::from_header(b"hello world").err();
    assert!(e.is_some_and(|e| e.contains("expected a usage log's header line")));
}

#[test]
fn a_header_again_is_told_from_a_row_that_starts_with_a_name() {
    let l = layout("gpu, timestamp, utilization, memory_used_mib");
    assert!(l.is_csv_header(b"gpu, timestamp, utilization, memory_used_mib"));
    assert!(l.is_csv_header(b"timestamp, index, utilization.gpu [%]"));
    assert!(!l.is_csv_header(b"a100-east, 2026-11-02T10:00:00Z, 80, 100"));
    assert!(!l.is_csv_header(b"GPU-5f1c, 2026-11-02T10:00:00Z, 80, 100"));
    assert!(!l.is_csv_header(b"2026/11/02 10:00:00.000, 0, 80 %"));
    // Every name role_of knows is in the list is_csv_header looks in.
    for n in CSV_NAMES {
        assert_ne!(role_of(n, false), Role::Skip, "{n}");
    }
}

/// #44 item 10: the header line was split at every comma, the data rows by the CSV reader:
/// a quoted header field holding a comma (`"rack, host"`) became two columns, so every
/// column after it was read from the field to its left (the utilization from the memory).
#[test]
fn a_quoted_header_field_with_a_comma_is_one_column() {
    let l = layout(r#"timestamp,"rack, host",gpu,utilization,memory_used_mib"#);
    let r = l
        .row(br#"2026-11-02T10:00:00Z,"r1, node1",0,80,1024"#, split())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (r.gpu, r.util, r.memory),
        (Some(&b"0"[..]), Some(80.0), Some(1024.0))
    );
    assert!(l.is_csv_header(br#""timestamp","rack, host",gpu,utilization,memory_used_mib"#));
}

#[test]
fn bad_fields_are_named() {
    let l = layout("timestamp,gpu,utilization,memory_used_mib");
    assert_eq!(l.kind, Kind::Plain);
    let e = |line: &str| l.row(line.as_bytes(), split()).err().unwrap_or_default();
    assert!(e("2026-11-02T10:00:00Z,0,80").contains("expected 4 fields"));
    assert!(e("2026-11-02T10:00:00Z,0,180,5").contains("from 0 to 100"));
    assert!(e("2026-11-02T10:00:00Z,0,abc,5").contains("\"abc\""));
    assert!(e("yesterday,0,80,5").contains("expected a timestamp"));
    assert!(e("2026-11-02T10:00:00Z,0,80,5 parsecs").contains("in MiB"));
    assert!(e("2026-11-02T10:00:00Z,0,80,99999999").contains("1 TiB"));
    assert!(l
        .row(b"1793613600,GPU-x,80%,40 GiB", split())
        .is_ok_and(|r| r.memory == Some(40960.0)));
}
