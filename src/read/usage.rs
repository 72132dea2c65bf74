//! The Usage sheet: which GPU of the usage logs ran which workload, for `gpuplan usage`. Each
//! row names a GPU as the logs do and a workload of the Workloads sheet; the sheet may be absent.

use super::xlsx::RawSheet;
use super::Reader;
use crate::error::Problem;
use crate::model::{GpuMapping, Workload};

impl Reader {
    pub(super) fn usage(
        &mut self,
        raw: Option<RawSheet>,
        workloads: &[Workload],
    ) -> Vec<GpuMapping> {
        let Some(raw) = raw else {
            return Vec::new();
        };
        let Some(t) = self.table(raw, "Usage") else {
            return Vec::new();
        };
        for key in ["gpu_id", "workload"] {
            if !t.has(key) {
                self.problems.push(Problem::new(
                    format!("{}!1", t.sheet),
                    format!("the Usage sheet needs a `{key}` column"),
                ));
            }
        }
        if !t.has("gpu_id") || !t.has("workload") {
            return Vec::new();
        }
        let mut out: Vec<GpuMapping> = Vec::new();
        for rec in t.records() {
            let p = &mut self.problems;
            let gpu = rec.required_text(
                "gpu_id",
                "the row needs the GPU as the logs name it (a uuid, an index or host:index)",
                p,
            );
            let workload = rec.required_text(
                "workload",
                "the row needs the workload that ran on the GPU",
                p,
            );
            let (Some(gpu), Some(workload)) = (gpu, workload) else {
                continue;
            };
            let workload = workload.trim().to_string();
            if !workloads.iter().any(|w| w.name == workload) {
                let hint = crate::support::suggest::hint(
                    &workload,
                    workloads.iter().map(|w| w.name.as_str()),
                );
                p.push(
                    Problem::new(
                        rec.at("workload"),
                        format!("{workload} is not a workload of the Workloads sheet{hint}"),
                    )
                    .with_zh(format!("{workload} 不是负载表中的负载{hint}")),
                );
                continue;
            }
            let gpu_id = gpu.trim().to_string();
            if let Some(first) = out.iter().find(|m| m.gpu_id.eq_ignore_ascii_case(&gpu_id)) {
                p.push(Problem::new(
                    rec.at("gpu_id"),
                    format!(
                        "the GPU {gpu_id} is listed twice (first at {}); a GPU runs one workload",
                        first.location
                    ),
                ));
                continue;
            }
            out.push(GpuMapping {
                gpu_id,
                workload,
                location: rec.at("gpu_id"),
            });
        }
        out
    }
}
