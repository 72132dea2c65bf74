//! What the workbook and the terminal call things, in English and Chinese: the one text type in
//! both languages ([`text`]: [`Label`], [`Said`]), the one shape of a problem or warning at a
//! place ([`message`]), the tabs, their labels and the terms finance reads ([`layout`]), and the
//! plan's values as words ([`words`]).

pub mod layout;
pub mod message;
pub mod text;
pub mod words;

pub use message::Message;
pub use text::{Label, Said, Text, Words};
