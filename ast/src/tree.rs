//! Schedule trees (isl's YAML format), read into a small tree type.

use crate::error::{Error, Result};
use crate::node::Node;

/// A schedule tree (placeholder until the reader lands).
#[derive(Clone, Debug)]
pub struct Tree;

/// Parse a schedule tree.
pub fn parse_tree(_text: &str) -> Result<Tree> {
    Err(Error::Unsupported("schedule trees are not read yet".into()))
}

/// Generate the AST of a schedule tree.
pub fn generate_tree(_t: &Tree) -> Result<Node> {
    Err(Error::Unsupported("schedule trees are not read yet".into()))
}
