//! Schedule trees: a small reader of isl's YAML format and the flattening of
//! a tree into a schedule map (the input of [`crate::generate`]).
//!
//! The tree type is deliberately plain (`TreeNode`) so that the scheduler's
//! own schedule-tree type can later be converted into it.

use crate::error::{Error, Result};
use crate::options::Options;
use crate::rows::remap;
use presburger::{Map, Set, Space, Tuple, UnionMap};

/// A schedule-tree node.
#[derive(Clone, Debug)]
pub enum TreeNode {
    /// The root: the statement instances.
    Domain(UnionMap, Box<TreeNode>),
    /// Parameter constraints that may be assumed below.
    Context(Set, Box<TreeNode>),
    /// A band: its members (one `{ S[i] -> [f(i)] }` per dimension) and
    /// its options (`{ separate[x] }`, ...).
    Band(Vec<UnionMap>, Option<UnionMap>, Box<TreeNode>),
    /// Children in order.
    Sequence(Vec<TreeNode>),
    /// Children in any order.
    Set(Vec<TreeNode>),
    /// The instances of the subtree.
    Filter(UnionMap, Box<TreeNode>),
    /// A mark (no effect on the order).
    Mark(String, Box<TreeNode>),
    /// An expansion: each instance above (`G`) stands for the instances
    /// it maps to (`G[j] -> S[i]`), which take its place below.
    Expansion(UnionMap, Box<TreeNode>),
    /// No further scheduling.
    Leaf,
}

/// A minimal YAML value: scalar, mapping or sequence (block style; flow
/// lists are kept as scalars).
#[derive(Clone, Debug)]
enum Yaml {
    Scalar(String, usize),
    Map(Vec<(String, Yaml, usize)>),
    Seq(Vec<Yaml>),
}

struct Lines<'a> {
    lines: Vec<(usize, usize, String)>, // (line number, indent, text)
    _text: std::marker::PhantomData<&'a str>,
    pos: usize,
}

fn perr(line: usize, message: &str) -> Error {
    Error::Parse {
        line,
        col: 1,
        message: message.into(),
    }
}

/// The number of unescaped double quotes in `s`.
fn quotes(s: &str) -> usize {
    let b = s.as_bytes();
    (0..b.len())
        .filter(|&i| b[i] == b'"' && (i == 0 || b[i - 1] != b'\\'))
        .count()
}

fn unquote(s: &str) -> String {
    let s = s.trim();
    if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
        s[1..s.len() - 1].replace("\\\"", "\"")
    } else {
        s.to_string()
    }
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        // a double-quoted scalar may continue over several lines (a
        // trailing `\` joins without a space)
        let mut lines: Vec<(usize, usize, String)> = Vec::new();
        let mut open: Option<usize> = None;
        for (k, l) in text.lines().enumerate() {
            if let Some(idx) = open {
                let last = &mut lines[idx].2;
                if last.ends_with('\\') {
                    last.pop();
                } else {
                    last.push(' ');
                }
                last.push_str(l.trim());
                if quotes(l) % 2 == 1 {
                    open = None;
                }
                continue;
            }
            if l.trim().is_empty() || l.trim_start().starts_with('#') {
                continue;
            }
            let t = l.trim_start();
            lines.push((k + 1, l.len() - t.len(), t.trim_end().to_string()));
            if quotes(t) % 2 == 1 {
                open = Some(lines.len() - 1);
            }
        }
        Lines {
            lines,
            pos: 0,
            _text: std::marker::PhantomData,
        }
    }

    /// A block at indentation `ind` (a mapping or a `- ` sequence).
    fn block(&mut self, ind: usize) -> Result<Yaml> {
        let Some((_, i, t)) = self.lines.get(self.pos).cloned() else {
            return Ok(Yaml::Map(vec![]));
        };
        if i != ind {
            return Ok(Yaml::Map(vec![]));
        }
        if t.starts_with("- ") || t == "-" {
            let mut items = Vec::new();
            while let Some((ln, i, t)) = self.lines.get(self.pos).cloned() {
                if i != ind || !(t.starts_with("- ") || t == "-") {
                    break;
                }
                // the item's content starts after "- ", as a mapping at ind + 2
                let rest = t[1..].trim_start();
                let inner = ind + (t.len() - rest.len());
                self.lines[self.pos] = (ln, inner, rest.to_string());
                items.push(self.mapping(inner)?);
            }
            Ok(Yaml::Seq(items))
        } else {
            self.mapping(ind)
        }
    }

    fn mapping(&mut self, ind: usize) -> Result<Yaml> {
        let mut entries = Vec::new();
        while let Some((ln, i, t)) = self.lines.get(self.pos).cloned() {
            if i < ind {
                break;
            }
            if i > ind {
                return Err(perr(ln, "a key at the indentation of its mapping"));
            }
            if t.starts_with("- ") {
                break;
            }
            let Some(k) = t.find(':') else {
                return Err(perr(ln, "`key: value`"));
            };
            let key = t[..k].trim().to_string();
            let val = t[k + 1..].trim();
            self.pos += 1;
            if val.is_empty() {
                let next_ind = self.lines.get(self.pos).map_or(0, |l| l.1);
                let v = if next_ind > ind
                    || (next_ind == ind
                        && self
                            .lines
                            .get(self.pos)
                            .is_some_and(|l| l.2.starts_with("- ")))
                {
                    self.block(next_ind)?
                } else {
                    Yaml::Scalar(String::new(), ln)
                };
                entries.push((key, v, ln));
            } else {
                entries.push((key, Yaml::Scalar(unquote(val), ln), ln));
            }
        }
        Ok(Yaml::Map(entries))
    }
}

fn parse_obj<T: std::str::FromStr<Err = presburger::Error>>(s: &str, line: usize) -> Result<T> {
    s.parse::<T>().map_err(|e| match e {
        presburger::Error::Parse { col, expected, .. } => Error::Parse {
            line,
            col,
            message: format!("expected {expected}"),
        },
        e => Error::from(e),
    })
}

/// A union set (the value of a `domain`, `context` or `filter` key): a
/// relation there is an error at its line.
fn parse_union_set(s: &str, line: usize, key: &str) -> Result<UnionMap> {
    let u: UnionMap = parse_obj(s, line)?;
    if u.maps().iter().any(|m| !m.space().is_set()) {
        return Err(Error::Parse {
            line,
            col: 1,
            message: format!("expected a set as the value of `{key}`, not a relation"),
        });
    }
    Ok(u)
}

/// `[params] -> [{ ... }, { ... }]`: the members of a band.
fn parse_mupa(s: &str, line: usize) -> Result<Vec<UnionMap>> {
    let s = s.trim();
    let (prefix, body) = match s.find("->") {
        Some(k)
            if s.starts_with('[') && s[..k].trim_end().ends_with(']') && !s[..k].contains('{') =>
        {
            (format!("{} -> ", &s[..k].trim()), s[k + 2..].trim())
        }
        _ => (String::new(), s),
    };
    // an optional name of the band's tuple (`S[{ ... }]`)
    let body = body.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_');
    let body = body
        .strip_prefix('[')
        .and_then(|b| b.strip_suffix(']'))
        .ok_or_else(|| perr(line, "a band schedule `[{ ... }, ...]`"))?;
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, None);
    for (k, ch) in body.char_indices() {
        match ch {
            '{' => {
                if depth == 0 {
                    start = Some(k);
                }
                depth += 1;
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    let obj = &body[start.unwrap_or(0)..=k];
                    out.push(parse_obj::<UnionMap>(&format!("{prefix}{obj}"), line)?);
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

fn node_of(y: &Yaml) -> Result<TreeNode> {
    let Yaml::Map(entries) = y else {
        return Err(perr(0, "a schedule-tree node (a mapping)"));
    };
    let get = |k: &str| entries.iter().find(|(key, _, _)| key == k);
    let child = || -> Result<Box<TreeNode>> {
        Ok(Box::new(match get("child") {
            Some((_, c, _)) => node_of(c)?,
            None => TreeNode::Leaf,
        }))
    };
    let scalar = |k: &str| -> Option<(String, usize)> {
        match get(k) {
            Some((_, Yaml::Scalar(s, l), _)) => Some((s.clone(), *l)),
            _ => None,
        }
    };
    let list = |v: &Yaml| -> Result<Vec<TreeNode>> {
        match v {
            Yaml::Seq(items) => items.iter().map(node_of).collect(),
            _ => Err(perr(0, "a list of children")),
        }
    };
    if let Some((s, l)) = scalar("domain") {
        return Ok(TreeNode::Domain(
            parse_union_set(&s, l, "domain")?,
            child()?,
        ));
    }
    if let Some((s, l)) = scalar("context") {
        let c: Set = parse_obj(&s, l)?;
        if !c.space().is_set() {
            return Err(Error::Parse {
                line: l,
                col: 1,
                message: "expected a set as the value of `context`, not a relation".into(),
            });
        }
        return Ok(TreeNode::Context(c, child()?));
    }
    if let Some((s, l)) = scalar("schedule") {
        let options = match scalar("options") {
            Some((o, ol)) => {
                let u: UnionMap = parse_obj(&o, ol)?;
                // checked here, where the line is known
                let members = parse_mupa(&s, l)?.len();
                crate::options::Options::default()
                    .add_band(&u, 0, members, &[], None)
                    .map_err(|e| match e {
                        Error::Unsupported(m) => perr(ol, &format!("a supported option: {m}")),
                        e => e,
                    })?;
                Some(u)
            }
            None => None,
        };
        return Ok(TreeNode::Band(parse_mupa(&s, l)?, options, child()?));
    }
    if let Some((s, l)) = scalar("filter") {
        return Ok(TreeNode::Filter(
            parse_union_set(&s, l, "filter")?,
            child()?,
        ));
    }
    if let Some((s, l)) = scalar("expansion") {
        // the contraction (its inverse, informative) is checked for syntax
        if let Some((c, cl)) = scalar("contraction") {
            parse_obj::<UnionMap>(&c, cl)?;
        }
        return Ok(TreeNode::Expansion(parse_obj(&s, l)?, child()?));
    }
    if let Some((s, _)) = scalar("mark") {
        return Ok(TreeNode::Mark(s, child()?));
    }
    if let Some((_, v, _)) = get("sequence") {
        return Ok(TreeNode::Sequence(list(v)?));
    }
    if let Some((_, v, _)) = get("set") {
        return Ok(TreeNode::Set(list(v)?));
    }
    let (key, line) = entries
        .first()
        .map_or(("(empty)".to_string(), 0), |(k, _, l)| (k.clone(), *l));
    Err(Error::Unsupported(format!(
        "schedule-tree node `{key}` (line {line})"
    )))
}

/// Parse a schedule tree in isl's YAML format.
pub fn parse_tree(text: &str) -> Result<TreeNode> {
    let mut lines = Lines::new(text);
    let y = lines.block(0)?;
    if let Some((ln, _, _)) = lines.lines.get(lines.pos) {
        let ln = *ln;
        return Err(perr(ln, "the end of the tree"));
    }
    let root = node_of(&y)?;
    if !matches!(root, TreeNode::Domain(..)) {
        return Err(perr(1, "a schedule tree starting with a `domain` node"));
    }
    Ok(root)
}

/// The flattened schedule of a tree, `{ S[i] -> [t] }` (sequence children
/// get their position as a schedule dimension, set children all get 0:
/// their instances are not ordered; shorter schedules are padded with
/// zeros), and the context collected from context nodes.
pub fn tree_to_schedule(t: &TreeNode) -> Result<(UnionMap, Set)> {
    let (s, c, _) = tree_to_schedule_with_options(t)?;
    Ok((s, c))
}

/// [`tree_to_schedule`] and the loop kinds of the bands' options, by
/// flattened schedule dimension.
pub fn tree_to_schedule_with_options(t: &TreeNode) -> Result<(UnionMap, Set, Options)> {
    let TreeNode::Domain(dom, child) = t else {
        return Err(Error::Unsupported(
            "a schedule tree must start with a domain".into(),
        ));
    };
    let params: Vec<String> = dom.params().to_vec();
    let mut start = UnionMap::empty(params.clone());
    for s in dom.maps() {
        let space = Space::map(
            s.space().params.clone(),
            s.space().range.clone(),
            std::sync::Arc::new(Tuple::anonymous(0)),
        );
        let mut m = Map::empty(space.clone());
        for b in s.basic_maps() {
            m.add_basic(remap(b, &space, &|c| c))?;
        }
        start.add_map(m)?;
    }
    let mut leaves = Vec::new();
    let mut context = Set::universe(Space::params_only(params));
    let mut loops = Options::default();
    walk(child, start, &mut leaves, &mut context, &mut loops, &[])?;
    let depth = leaves
        .iter()
        .flat_map(|u| u.maps().iter().map(|m| m.space().n_out()))
        .max()
        .unwrap_or(0);
    let mut out = UnionMap::empty(vec![]);
    for u in leaves {
        for m in u.maps() {
            let k = depth - m.space().n_out();
            let pad: Vec<UnionMap> = (0..k).map(|_| UnionMap::empty(vec![])).collect();
            let m = append(m, &pad, Some(0))?;
            out = out.union(&UnionMap::from_map(m))?;
        }
    }
    let loops = loops.resolve(&out)?;
    Ok((out, context, loops))
}

/// `S[i] -> [a]` extended by one dimension per member: `[a, f(i)]`
/// (`fixed`: the new dimensions are that constant instead).
fn append(m: &Map, members: &[UnionMap], fixed: Option<i64>) -> Result<Map> {
    // a band may name parameters the domain does not have: extend the domain's
    let mut params: Vec<String> = m.space().params.to_vec();
    for u in members {
        for p in u.params() {
            if !params.contains(p) {
                params.push(p.clone());
            }
        }
    }
    let mut m = m.clone();
    m.align_params(&params);
    let m = &m;
    let np = m.space().n_param();
    let (ni, no) = (m.space().n_in(), m.space().n_out());
    let k = members.len();
    let space = Space::map(
        m.space().params.clone(),
        m.space().domain_tuple(),
        std::sync::Arc::new(Tuple::anonymous(no + k)),
    );
    let mut acc = Map::empty(space.clone());
    for b in m.basic_maps() {
        acc.add_basic(remap(b, &space, &|c| c))?;
    }
    for (j, u) in members.iter().enumerate() {
        let col = 1 + np + ni + no + j;
        let mut part = Map::empty(space.clone());
        if let Some(v) = fixed {
            let mut b = presburger::BasicMap::universe(space.clone());
            let mut r = vec![presburger::Int::ZERO; b.row_len()];
            r[col] = presburger::Int::ONE;
            r[0] = presburger::Int::from(-v);
            b.add_eq(r);
            part.add_basic(b)?;
        } else {
            let mut u = u.clone();
            u.align_params(&m.space().params);
            let Some(f) = u
                .maps()
                .iter()
                .find(|f| f.space().domain == m.space().domain)
            else {
                return Err(Error::Unsupported(format!(
                    "band member without a value for {}",
                    m.space().domain_tuple().name.clone().unwrap_or_default()
                )));
            };
            let fnp = f.space().n_param();
            for b in f.basic_maps() {
                // [c | params | in | out(1)] -> [c | params | in | out(no + k)]
                part.add_basic(remap(b, &space, &|c| if c <= fnp + ni { c } else { col }))?;
            }
        }
        acc = acc.intersect(&part)?;
    }
    Ok(acc)
}

/// `bands`: the schedule dimensions of the outer bands' members.
fn walk(
    t: &TreeNode,
    cur: UnionMap,
    leaves: &mut Vec<UnionMap>,
    ctx: &mut Set,
    loops: &mut Options,
    bands: &[usize],
) -> Result<()> {
    match t {
        TreeNode::Leaf => leaves.push(cur),
        TreeNode::Domain(..) => {
            return Err(Error::Unsupported("a domain node below the root".into()))
        }
        TreeNode::Context(c, child) => {
            *ctx = ctx.intersect(&c.params())?;
            walk(child, cur, leaves, ctx, loops, bands)?;
        }
        TreeNode::Mark(_, child) => walk(child, cur, leaves, ctx, loops, bands)?,
        TreeNode::Expansion(e, child) => {
            // { S[i] -> t } = { S[i] -> G[j] } then { G[j] -> t }
            let cur = e.reverse()?.apply_range(&cur)?;
            walk(child, cur, leaves, ctx, loops, bands)?;
        }
        TreeNode::Filter(f, child) => {
            let cur = cur.intersect_domain(f)?;
            walk(child, cur, leaves, ctx, loops, bands)?;
        }
        TreeNode::Band(members, options, child) => {
            let mut next = UnionMap::empty(cur.params().to_vec());
            for m in cur.maps() {
                next.add_map(append(m, members, None)?)?;
            }
            let first = cur.maps().first().map_or(0, |m| m.space().n_out());
            if let Some(o) = options {
                // the band's own times: its options hold there
                let mut region: Option<Set> = None;
                for m in next.maps() {
                    let r = m.range()?;
                    region = Some(match region {
                        None => r,
                        Some(u) => u.union(&r)?,
                    });
                }
                if let Some(region) = region {
                    loops.add_band(o, first, members.len(), bands, Some(&region))?;
                }
            }
            let mut inner = bands.to_vec();
            inner.extend(first..first + members.len());
            walk(child, next, leaves, ctx, loops, &inner)?;
        }
        TreeNode::Sequence(children) | TreeNode::Set(children) => {
            // a sequence orders its children by position; a set's children
            // share one (their instances may run in any order: the
            // generator is free to place them where fewer tests result)
            let ordered = matches!(t, TreeNode::Sequence(_));
            for (k, c) in children.iter().enumerate() {
                let mut next = UnionMap::empty(cur.params().to_vec());
                let position = if ordered { k as i64 } else { 0 };
                for m in cur.maps() {
                    let e = append(m, &[UnionMap::empty(vec![])], Some(position))?;
                    next.add_map(e)?;
                }
                walk(c, next, leaves, ctx, loops, bands)?;
            }
        }
    }
    Ok(())
}

/// Generate the AST of a schedule tree (flattened with [`tree_to_schedule`]).
pub fn generate_tree(t: &TreeNode) -> Result<crate::node::Node> {
    let (schedule, context, loops) = tree_to_schedule_with_options(t)?;
    crate::generate_with_options(&schedule, &context, &loops)
}
