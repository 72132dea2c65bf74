//! `gpuplan init`: the template, blank or with an example.

use super::out;
use crate::cli::InitArgs;
use crate::error::{Error, Result};
use crate::labels::Said;
use crate::lang::Lang;
use crate::support::output;
use crate::{catalog, write};

pub fn init(a: &InitArgs) -> Result<()> {
    let example = if a.blank {
        write::Example::None
    } else {
        match &a.example {
            None => write::Example::Team,
            Some(n) => write::Example::parse(n).ok_or_else(|| {
                Error::Usage(format!(
                    "--example {n}: unknown example; choose team or api"
                ))
            })?,
        }
    };
    output::check_target(&a.path, a.force)?;
    // What was written is said on stdout: refused before the file is written when it is closed.
    output::check_stdout()?;
    let bytes = write::template_bytes(
        a.lang.unwrap_or_default(),
        example,
        crate::support::time::generation_time(),
    )?;
    output::save(&a.path, &bytes)?;
    // The workbook is English unless --lang says otherwise; the message follows the terminal.
    let lang = a.lang.unwrap_or_else(Lang::from_env);
    let sheet = catalog::sheet_name("Workloads", a.lang.unwrap_or_default());
    let path = a.path.display();
    out(Said::new(
        format!("wrote {path}: fill in the {sheet} sheet, then run `gpuplan calc {path}`\n"),
        format!("已写入 {path}：请填写{sheet}表，然后运行 `gpuplan calc {path}`\n"),
    )
    .get(lang))
}
