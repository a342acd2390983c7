//! A byte trie over the rules' literal prefixes, so a check only looks at rules that can match.
//!
//! Every pattern starts with a literal piece the path must start with (`/private/` in
//! `/private/*.pdf`; empty for `*.gif`). Walking the path down the trie visits exactly the rules
//! whose first piece is a prefix of the path; the others cannot match and are never looked at.
//! A file of 1,300 plain `Disallow:` lines then costs a walk of the path, not 1,300 comparisons.
//!
//! Rules are numbered in decision order (see `agent.rs`); each trie node lists its rules in that
//! order, so the first rule that matches at a node is the best at that node, and nodes whose
//! first rule comes after the best match so far are skipped.

/// The trie, flattened: node `n`'s children are `edges[children(n)]` (sorted by byte) and its
/// rules are `rules[rules(n)]` (ascending).
#[derive(Debug, Clone, Default)]
pub(crate) struct PrefixIndex {
    nodes: Vec<Node>,
    edges: Vec<(u8, u32)>,
    rules: Vec<u32>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Node {
    edges_start: u32,
    edges_end: u32,
    rules_start: u32,
    rules_end: u32,
}

/// The trie while it is built: children by byte, and the rules ending at each node.
#[derive(Default)]
struct BuildNode {
    children: Vec<(u8, usize)>,
    rules: Vec<u32>,
}

impl PrefixIndex {
    /// Indexes rule `i` under `prefixes[i]`.
    pub(crate) fn build<'p>(prefixes: impl IntoIterator<Item = &'p [u8]>) -> PrefixIndex {
        let mut tree = vec![BuildNode::default()];
        for (rule, prefix) in (0u32..).zip(prefixes) {
            let mut node = 0;
            for &byte in prefix {
                let existing = tree
                    .get(node)
                    .and_then(|n| n.children.iter().find(|(b, _)| *b == byte))
                    .map(|(_, child)| *child);
                node = if let Some(child) = existing {
                    child
                } else {
                    let child = tree.len();
                    tree.push(BuildNode::default());
                    if let Some(parent) = tree.get_mut(node) {
                        parent.children.push((byte, child));
                    }
                    child
                };
            }
            if let Some(end) = tree.get_mut(node) {
                end.rules.push(rule);
            }
        }
        Self::flatten(tree)
    }

    fn flatten(tree: Vec<BuildNode>) -> PrefixIndex {
        let to_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let mut index = PrefixIndex {
            nodes: Vec::with_capacity(tree.len()),
            edges: Vec::new(),
            rules: Vec::new(),
        };
        for mut node in tree {
            node.children.sort_unstable_by_key(|(byte, _)| *byte);
            let edges_start = to_u32(index.edges.len());
            index.edges.extend(
                node.children
                    .iter()
                    .map(|&(byte, child)| (byte, to_u32(child))),
            );
            let rules_start = to_u32(index.rules.len());
            index.rules.extend(&node.rules);
            index.nodes.push(Node {
                edges_start,
                edges_end: to_u32(index.edges.len()),
                rules_start,
                rules_end: to_u32(index.rules.len()),
            });
        }
        index
    }

    /// The lowest-numbered rule whose prefix starts `path` and for which `matches` holds.
    pub(crate) fn first_match(
        &self,
        path: &[u8],
        mut matches: impl FnMut(u32) -> bool,
    ) -> Option<u32> {
        let mut best: Option<u32> = None;
        let mut node = self.nodes.first()?;
        let mut rest = path;
        loop {
            let rules = self
                .rules
                .get(node.rules_start as usize..node.rules_end as usize)
                .unwrap_or_default();
            for &rule in rules {
                if best.is_some_and(|best| rule >= best) {
                    break;
                }
                if matches(rule) {
                    best = Some(rule);
                    break;
                }
            }
            let Some((&byte, tail)) = rest.split_first() else {
                return best;
            };
            let edges = self
                .edges
                .get(node.edges_start as usize..node.edges_end as usize)
                .unwrap_or_default();
            let Ok(found) = edges.binary_search_by_key(&byte, |(edge, _)| *edge) else {
                return best;
            };
            let Some(next) = edges
                .get(found)
                .and_then(|(_, child)| self.nodes.get(*child as usize))
            else {
                return best;
            };
            node = next;
            rest = tail;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_rules_whose_prefix_starts_the_path_are_tried() {
        let prefixes: [&[u8]; 5] = [b"/a/b", b"/a", b"", b"/c", b"/a/b/c"];
        let index = PrefixIndex::build(prefixes);
        let mut tried = Vec::new();
        let found = index.first_match(b"/a/b/x", |rule| {
            tried.push(rule);
            false
        });
        assert_eq!(found, None);
        tried.sort_unstable();
        assert_eq!(tried, vec![0, 1, 2]);
    }

    #[test]
    fn the_lowest_numbered_match_wins_wherever_it_sits() {
        let prefixes: [&[u8]; 4] = [b"/a/b", b"", b"/a", b"/a/b"];
        let index = PrefixIndex::build(prefixes);
        assert_eq!(index.first_match(b"/a/b", |_| true), Some(0));
        assert_eq!(index.first_match(b"/a/b", |rule| rule != 0), Some(1));
        assert_eq!(index.first_match(b"/a/b", |rule| rule >= 2), Some(2));
        assert_eq!(index.first_match(b"/a/b", |rule| rule == 3), Some(3));
        assert_eq!(index.first_match(b"/z", |_| true), Some(1));
        assert_eq!(
            PrefixIndex::build(std::iter::empty()).first_match(b"/", |_| true),
            None
        );
    }
}
