//! Which GPU ran which workload: the rows of the Usage sheet or of a `--map` CSV file (the same
//! two columns, `gpu_id` and `workload`), and how a GPU seen in a log finds its row.

use crate::error::{Error, Problem, Result};
use crate::model::GpuMapping;
use std::path::Path;

/// The largest `--map` file read.
const MAX_MAP_BYTES: u64 = 10 * 1024 * 1024;

/// A GPU as a log names it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GpuId {
    /// The log file's name up to its first dot, or a plain log's `hostname` column.
    pub host: String,
    /// The GPU's index on its host (nvidia-smi's `index`, dmon's `gpu`, or a plain log's
    /// numeric gpu value), where the log gives one.
    pub index: Option<u32>,
    /// nvidia-smi's uuid (`GPU-5f1c…`).
    pub uuid: Option<String>,
    /// A plain log's gpu value that is neither an index nor a uuid.
    pub label: Option<String>,
}

impl GpuId {
    /// A plain log's gpu value: an index (`0`), a uuid (`GPU-…`, `MIG-…`), `host:index`, or a
    /// name of the user's.
    pub fn from_plain(host: &str, value: &str) -> GpuId {
        let mut id = GpuId {
            host: host.to_string(),
            ..GpuId::default()
        };
        let upper = value.to_ascii_uppercase();
        if let Ok(i) = value.parse::<u32>() {
            id.index = Some(i);
        } else if upper.starts_with("GPU-") || upper.starts_with("MIG-") {
            id.uuid = Some(value.to_string());
        } else if let Some((h, i)) = host_index(value) {
            id.host = h.to_string();
            id.index = Some(i);
        } else {
            id.label = Some(value.to_string());
        }
        id
    }

    /// The keys that make samples of one GPU one stream across files and formats: its uuid where
    /// the log gives one, and `host:index` (or `host:name`), so that a log with the uuid and one
    /// with the index alone meet.
    pub fn keys(&self) -> Vec<String> {
        let mut keys = Vec::new();
        if let Some(u) = &self.uuid {
            keys.push(u.to_ascii_lowercase());
        }
        if let Some(i) = self.index {
            keys.push(format!("{}:{i}", self.host));
        }
        if let Some(l) = &self.label {
            keys.push(format!("{}:{l}", self.host));
        }
        keys
    }

    /// How messages name it: `node1:0 (GPU-5f1c…)`, `node1:0`, `GPU-5f1c…`.
    pub fn name(&self) -> String {
        let local = match (self.index, &self.label) {
            (Some(i), _) => Some(format!("{}:{i}", self.host)),
            (None, Some(l)) => Some(format!("{}:{l}", self.host)),
            _ => None,
        };
        match (local, &self.uuid) {
            (Some(l), Some(u)) => format!("{l} ({u})"),
            (Some(l), None) => l,
            (None, Some(u)) => u.clone(),
            (None, None) => self.host.clone(),
        }
    }

    /// How well a mapping's gpu_id names this GPU: 4 its uuid, 3 its plain-log name, 2
    /// `host:index`, 1 its index alone (that index on every host); 0 not at all.
    pub fn matches(&self, gpu_id: &str) -> u8 {
        if self
            .uuid
            .as_deref()
            .is_some_and(|u| u.eq_ignore_ascii_case(gpu_id))
        {
            return 4;
        }
        if self.label.as_deref() == Some(gpu_id) {
            return 3;
        }
        if let Some((h, i)) = host_index(gpu_id) {
            if Some(i) == self.index && h.eq_ignore_ascii_case(&self.host) {
                return 2;
            }
        }
        if gpu_id
            .parse::<u32>()
            .ok()
            .is_some_and(|i| Some(i) == self.index)
        {
            return 1;
        }
        0
    }
}

/// `node1:3` as host and index.
fn host_index(text: &str) -> Option<(&str, u32)> {
    let (h, i) = text.rsplit_once(':')?;
    let i = i.trim().parse().ok()?;
    (!h.trim().is_empty()).then_some((h.trim(), i))
}

/// The mapping row that names a GPU best (see [`GpuId::matches`]), if any.
pub fn find(mapping: &[GpuMapping], id: &GpuId) -> Option<usize> {
    mapping
        .iter()
        .enumerate()
        .map(|(i, m)| (id.matches(&m.gpu_id), i))
        .filter(|(score, _)| *score > 0)
        .max_by_key(|(score, i)| (*score, std::cmp::Reverse(*i)))
        .map(|(_, i)| i)
}

/// CSV fields of a line as RFC 4180 reads them (crate::support::fields), split at commas (or tabs, where
/// `tab`), then spaces and one pair of quotes off (`a, "b"` quotes after a space).
pub(super) fn fields(line: &str, tab: bool) -> Vec<String> {
    crate::support::fields::fields(line, if tab { b'\t' } else { b',' })
        .iter()
        .map(|f| {
            let f = f.trim();
            f.strip_prefix('"')
                .and_then(|f| f.strip_suffix('"'))
                .unwrap_or(f)
                .trim()
                .to_string()
        })
        .collect()
}

/// Reads a `--map` file: a header naming `gpu_id` and `workload` (as the Usage sheet's headers,
/// in English or Chinese), then one row per GPU. With `workloads` (from `--workbook`), each
/// workload must be one of them.
pub fn read_map(path: &Path, workloads: Option<&[String]>) -> Result<Vec<GpuMapping>> {
    let text = map_text(path)?;
    let file = path.display().to_string();
    let mut problems: Vec<Problem> = Vec::new();
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((h, header)) = lines.next() else {
        return Err(one_problem(
            format!("{file}:1"),
            "the map is empty; expected a header gpu_id,workload and a row per GPU".into(),
        ));
    };
    let Some(columns) = MapColumns::from_header(header) else {
        return Err(one_problem(
            format!("{file}:{}", h + 1),
            format!(
                "expected a header naming the columns gpu_id and workload, found \"{}\"",
                header.chars().take(80).collect::<String>()
            ),
        ));
    };
    let mut out: Vec<GpuMapping> = Vec::new();
    for (i, line) in lines {
        let at = format!("{file}:{}", i + 1);
        let (gpu_id, workload) = columns.row(line);
        match row_problem(&out, workloads, &gpu_id, &workload, line) {
            Some(message) => problems.push(Problem::new(at, message)),
            None => out.push(GpuMapping {
                gpu_id,
                workload,
                location: at,
            }),
        }
    }
    if !problems.is_empty() {
        return Err(Error::lines(problems));
    }
    Ok(out)
}

/// The map file as text: at most [`MAX_MAP_BYTES`], UTF-8, without a byte-order mark.
fn map_text(path: &Path) -> Result<String> {
    crate::support::files::read_text_bounded(
        path,
        MAX_MAP_BYTES,
        "a GPU-to-workload map (CSV)",
        "the map is not UTF-8 text; save it as CSV (UTF-8)",
    )
}

/// The error for a map that cannot be read past its header: one problem at `location`.
fn one_problem(location: String, message: String) -> Error {
    Error::lines(vec![Problem::new(location, message)])
}

/// Where the header puts the map's two columns, and how the fields are separated.
struct MapColumns {
    gpu: usize,
    workload: usize,
    /// Tab-separated (a header with tabs and no comma).
    tab: bool,
}

impl MapColumns {
    /// The columns a header line names, matched as the Usage sheet's headers are (English or
    /// Chinese); None when it lacks either.
    fn from_header(header: &str) -> Option<MapColumns> {
        let tab = header.contains('\t') && !header.contains(',');
        let head = fields(header, tab);
        let columns = crate::catalog::columns("Usage");
        let col = |key: &str| {
            let (_, c) = crate::catalog::find_column(&columns, key)?;
            head.iter().position(|h| c.is_named_by(h))
        };
        let (Some(gpu), Some(workload)) = (col("gpu_id"), col("workload")) else {
            return None;
        };
        Some(MapColumns { gpu, workload, tab })
    }

    /// A row's gpu_id and workload, empty where the row has no such field.
    fn row(&self, line: &str) -> (String, String) {
        let f = fields(line, self.tab);
        let get = |c: usize| f.get(c).cloned().unwrap_or_default();
        (get(self.gpu), get(self.workload))
    }
}

/// What is wrong with a map row, if anything: a GPU or workload left blank, a workload the
/// workbook does not have (when `workloads` are known), or a GPU already mapped in `earlier`.
fn row_problem(
    earlier: &[GpuMapping],
    workloads: Option<&[String]>,
    gpu_id: &str,
    workload: &str,
    line: &str,
) -> Option<String> {
    if gpu_id.is_empty() || workload.is_empty() {
        return Some(format!(
            "expected a GPU (a uuid, an index or host:index) and a workload, found \"{}\"",
            line.chars().take(80).collect::<String>()
        ));
    }
    if let Some(known) = workloads {
        if !known.iter().any(|w| w == workload) {
            let hint = crate::support::suggest::hint(workload, known.iter().map(String::as_str));
            return Some(format!(
                "{workload} is not a workload of the workbook's Workloads sheet{hint}"
            ));
        }
    }
    let first = earlier
        .iter()
        .find(|m| m.gpu_id.eq_ignore_ascii_case(gpu_id))?;
    Some(format!(
        "the GPU {gpu_id} is listed twice (first at {}); a GPU runs one workload",
        first.location
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(gpu_id: &str, workload: &str) -> GpuMapping {
        GpuMapping {
            gpu_id: gpu_id.into(),
            workload: workload.into(),
            location: String::new(),
        }
    }

    #[test]
    fn the_most_specific_row_wins() {
        let id = GpuId {
            host: "node1".into(),
            index: Some(0),
            uuid: Some("GPU-5f1c".into()),
            label: None,
        };
        let m = [row("0", "a"), row("node1:0", "b"), row("gpu-5F1C", "c")];
        assert_eq!(find(&m, &id), Some(2));
        assert_eq!(find(&m[..2], &id), Some(1));
        assert_eq!(find(&m[..1], &id), Some(0));
        assert_eq!(find(&[row("node2:0", "x"), row("1", "y")], &id), None);
    }

    #[test]
    fn a_plain_gpu_value_is_an_index_a_uuid_host_index_or_a_name() {
        assert_eq!(GpuId::from_plain("h", "3").index, Some(3));
        assert_eq!(
            GpuId::from_plain("h", "GPU-ab").uuid.as_deref(),
            Some("GPU-ab")
        );
        let hi = GpuId::from_plain("h", "node7:2");
        assert_eq!((hi.host.as_str(), hi.index), ("node7", Some(2)));
        let l = GpuId::from_plain("h", "a100-east");
        assert_eq!(
            (l.keys(), l.name()),
            (vec!["h:a100-east".to_string()], "h:a100-east".to_string())
        );
        assert_eq!(find(&[row("a100-east", "w")], &l), Some(0));
    }
}
