//! The validation table: its CSV lines read, against its header, into [`Row`]s.

use super::{Family, Metric, Role, Row};
use crate::model::{Kind, Precision};

/// The header of a validation table: the columns by name.
struct Header(Vec<String>);

impl Header {
    /// The index of a column, or the error a row raises when the table lacks it.
    fn col(&self, name: &str) -> std::result::Result<usize, String> {
        self.0
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("no column {name}"))
    }
}

/// One data line of a validation table, read against its header; `no` is its line number in
/// the file, for messages.
struct Line<'a> {
    header: &'a Header,
    fields: Vec<String>,
    no: usize,
}

impl Line<'_> {
    /// A required column's text: blank where the line is short, an error where the table has
    /// no such column.
    fn at(&self, name: &str) -> std::result::Result<String, String> {
        Ok(self
            .fields
            .get(self.header.col(name)?)
            .cloned()
            .unwrap_or_default())
    }

    /// An optional column's text: blank where the table or the line lacks it.
    fn optional(&self, name: &str) -> String {
        self.header
            .col(name)
            .ok()
            .and_then(|i| self.fields.get(i).cloned())
            .unwrap_or_default()
    }

    /// A required column's number, `None` where blank.
    fn num(&self, name: &str) -> std::result::Result<Option<f64>, String> {
        let t = self.at(name)?;
        if t.trim().is_empty() {
            return Ok(None);
        }
        t.trim()
            .parse()
            .map(Some)
            .map_err(|_| format!("line {}: {name} is not a number: {t}", self.no))
    }

    /// Whether a required yes/no column says `yes`.
    fn yes(&self, name: &str) -> std::result::Result<bool, String> {
        Ok(self.at(name)?.trim() == "yes")
    }

    /// The weights', the KV cache's and the experts' precisions: the KV cache fp16 and the
    /// experts the weights' where blank (expert_precision is an optional column).
    fn precisions(&self) -> std::result::Result<(Precision, Precision, Precision), String> {
        let line_no = self.no;
        let precision = Precision::parse(&self.at("precision")?)
            .ok_or_else(|| format!("line {line_no}: unknown precision"))?;
        let kv = self.at("kv_precision")?;
        let kv_precision = if kv.trim().is_empty() {
            Precision::Fp16
        } else {
            Precision::parse(&kv).ok_or_else(|| format!("line {line_no}: unknown kv_precision"))?
        };
        // An optional column: blank or absent is the precision.
        let ex = self.optional("expert_precision");
        let expert_precision = if ex.trim().is_empty() {
            precision
        } else {
            Precision::parse(&ex)
                .ok_or_else(|| format!("line {line_no}: unknown expert_precision"))?
        };
        Ok((precision, kv_precision, expert_precision))
    }

    /// What the line measured: memory where blank.
    fn metric(&self) -> std::result::Result<Metric, String> {
        let metric_text = self.optional("metric");
        if metric_text.trim().is_empty() {
            return Ok(Metric::Memory);
        }
        Metric::parse(&metric_text).ok_or_else(|| {
            format!(
                "line {}: metric must be one of {}, found {metric_text}",
                self.no,
                Metric::ALL.map(Metric::key).join(", ")
            )
        })
    }

    /// Whether the line was used to fit a constant: calibrate where blank.
    fn role(&self) -> std::result::Result<Role, String> {
        match self.optional("role").trim() {
            "" | "calibrate" => Ok(Role::Calibrate),
            "holdout" => Ok(Role::Holdout),
            other => Err(format!(
                "line {}: role must be calibrate or holdout, found {other}",
                self.no
            )),
        }
    }

    /// The measurement in the metric's unit (GiB, tokens/s, requests or seconds), converted
    /// from the line's unit, which must suit the metric.
    fn measured(&self, metric: Metric) -> std::result::Result<f64, String> {
        let line_no = self.no;
        let measured = self
            .num("measured")?
            .ok_or_else(|| format!("line {line_no}: no measurement"))?;
        let unit = self.at("unit")?;
        match (unit.trim(), metric.family()) {
            ("GiB", Family::Memory) => Ok(measured),
            ("GB", Family::Memory) => Ok(measured * 1e9 / 2f64.powi(30)),
            ("MiB", Family::Memory) => Ok(measured / 1024.0),
            ("tokens/s", Family::Speed) => Ok(measured),
            ("requests", Family::Concurrency) => Ok(measured),
            ("s", Family::Latency) => Ok(measured),
            ("ms", Family::Latency) => Ok(measured / 1000.0),
            (other, Family::Memory) => Err(format!(
                "line {line_no}: unit must be GB, GiB or MiB, found {other}"
            )),
            (other, Family::Speed) => Err(format!(
                "line {line_no}: a decode_tps row is in tokens/s, found {other}"
            )),
            (other, Family::Latency) => Err(format!(
                "line {line_no}: a ttft_s row is in s or ms, found {other}"
            )),
            (other, Family::Concurrency) => Err(format!(
                "line {line_no}: a max_concurrency row is in requests, found {other}"
            )),
        }
    }

    /// The assumptions the measured setup fixes, `key=value` pairs separated by `;`.
    fn settings(&self) -> std::result::Result<Vec<(String, String)>, String> {
        // An optional column: a table without it fixes no assumptions.
        let text = self.optional("settings");
        let mut settings = Vec::new();
        for pair in text.split(';').filter(|p| !p.trim().is_empty()) {
            let (k, v) = pair.split_once('=').ok_or_else(|| {
                format!(
                    "line {}: settings are key=value pairs separated by ;, found {pair}",
                    self.no
                )
            })?;
            settings.push((k.trim().to_string(), v.trim().to_string()));
        }
        Ok(settings)
    }

    /// The GPUs of the replica measured: a whole number ≥ 1, 1 where blank.
    fn gpus(&self) -> std::result::Result<f64, String> {
        let g = self.optional("gpus");
        if g.trim().is_empty() {
            return Ok(1.0);
        }
        g.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| *v >= 1.0 && v.fract() == 0.0)
            .ok_or_else(|| {
                format!(
                    "line {}: gpus must be a whole number ≥ 1, found {g}",
                    self.no
                )
            })
    }

    /// The card's memory as the engine saw it, if the line gives it.
    fn gpu_gib(&self) -> std::result::Result<Option<f64>, String> {
        let g = self.optional("gpu_gib");
        if g.trim().is_empty() {
            return Ok(None);
        }
        g.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| *v > 0.0 && v.is_finite())
            .map(Some)
            .ok_or_else(|| {
                format!(
                    "line {}: gpu_gib must be a positive number of GiB, found {g}",
                    self.no
                )
            })
    }

    /// The line as a row; the columns are checked in the order their errors are reported.
    fn row(&self) -> std::result::Result<Row, String> {
        let kind = Kind::parse(&self.at("kind")?)
            .ok_or_else(|| format!("line {}: unknown kind", self.no))?;
        let (precision, kv_precision, expert_precision) = self.precisions()?;
        let metric = self.metric()?;
        let role = self.role()?;
        let measured_gib = self.measured(metric)?;
        let settings = self.settings()?;
        Ok(Row {
            id: self.at("id")?,
            model: self.at("model")?,
            kind,
            precision,
            kv_precision,
            expert_precision,
            context_len: self.num("context_len")?.unwrap_or(2048.0),
            batch_size: self.num("batch_size")?.unwrap_or(1.0),
            concurrency: self.num("concurrency")?.unwrap_or(1.0),
            avg_tokens: self.num("avg_tokens")?,
            lora_trainable_fraction: self.num("lora_trainable_fraction")?,
            grad_checkpointing: self.yes("grad_checkpointing")?,
            flash_attention: self.yes("flash_attention")?,
            settings,
            metric,
            role,
            gpus: self.gpus()?,
            gpu: self.at("gpu")?,
            gpu_gib: self.gpu_gib()?,
            measured_gib,
            measure: self.at("measure")?,
            framework: self.at("framework")?,
            engine: Some(self.optional("engine").trim().to_string()).filter(|e| !e.is_empty()),
            source: self.at("source")?,
        })
    }
}

/// Parses a validation table.
pub fn rows(csv: &str) -> std::result::Result<Vec<Row>, String> {
    let mut lines = csv.lines().filter(|l| !l.trim().is_empty());
    let header = Header(crate::support::fields::fields(
        lines.next().ok_or("the table is empty")?,
        b',',
    ));
    lines
        .enumerate()
        .map(|(n, line)| {
            Line {
                header: &header,
                fields: crate::support::fields::fields(line, b','),
                no: n + 2,
            }
            .row()
        })
        .collect()
}
