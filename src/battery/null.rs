//! The battery's null models live in the estimate layer ([`crate::estimate::null`]), which the
//! free-scale bias correction also simulates from; this path keeps working.

pub use crate::estimate::null::*;
