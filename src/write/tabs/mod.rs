//! The plan workbook, one file per tab, in SPEC §8 order.

use crate::plan::Plan;
use rust_xlsxwriter::{ExcelDateTime, Workbook, XlsxError};

pub fn workbook(plan: &Plan, zh: bool, creation: &ExcelDateTime) -> Result<Vec<u8>, XlsxError> {
    let _ = (plan, zh);
    let mut wb = Workbook::new();
    wb.set_properties(&rust_xlsxwriter::DocProperties::new().set_title("gpuplan plan").set_author("gpuplan").set_creation_datetime(creation));
    wb.add_worksheet().set_name("Summary")?;
    wb.save_to_buffer()
}
