//! What the workbook and the terminal call things, in English and Chinese: the tabs, their
//! labels and the terms finance reads ([`layout`]), and the plan's values as words ([`words`]).

pub mod layout;
pub mod words;
