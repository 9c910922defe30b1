//! The search tree: an arena of compact nodes addressed by `u32`.
//!
//! The children of a node sit side by side in one block of the arena whose
//! capacity is a power of two. Children are added one at a time (lazy
//! expansion); a full block is copied into a block twice its size and the old
//! block goes to a free list for its size, to be handed to the next node that
//! grows to that size. A node keeps no list of legal moves: only a cursor into
//! its pseudo-random move order (see `order.rs`).

/// "No index" for `u32` links.
pub(crate) const NONE: u32 = u32::MAX;

/// Index of the root in every tree.
pub(crate) const ROOT: u32 = 0;

/// A proven game-theoretic value, from the point of view of the player who
/// made the move into the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u8)]
pub(crate) enum Proof {
    #[default]
    Unknown = 0,
    Win = 1,
    Loss = 2,
    Draw = 3,
}

/// One node: 24 bytes.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct Node {
    /// Playouts through this node.
    pub visits: u32,
    /// Sum of rewards, doubled (win 2, draw 1, loss 0), for the player who
    /// made the move into this node. Integers keep it exact and deterministic.
    pub wins2: u32,
    /// First child of this node's block (or `NONE`); in a freed block, the
    /// next free block.
    pub first: u32,
    /// Index of this node's max-tree (see `maxtree.rs`) or `NONE`.
    pub accel: u32,
    /// Number of children.
    pub len: u16,
    /// Id of the move into this node.
    pub mv: u16,
    /// Steps taken along this node's move order (see `order.rs`).
    pub cursor: u16,
    /// Capacity of the child block as a power of two (low bits), and the
    /// flags ([`Node::THREATENED`], [`Node::THREATS_CHECKED`]).
    cap: u8,
    pub proof: Proof,
}

impl Node {
    /// Flag in `cap`: the opponent of the side to move here threatens to
    /// win at once, so only moves that stop every such threat are children.
    const THREATENED: u8 = 0x80;
    /// Flag in `cap`: the node was checked for threats.
    const THREATS_CHECKED: u8 = 0x40;
    /// Flag in `cap`: a thread is planning this node's next expansion
    /// outside the tree's lock, so the others leave its untried moves alone.
    const EXPANDING: u8 = 0x20;
    const FLAGS: u8 = Self::THREATENED | Self::THREATS_CHECKED | Self::EXPANDING;

    /// Capacity of the child block, as a power of two.
    #[inline]
    pub fn cap_log2(&self) -> u8 {
        self.cap & !Self::FLAGS
    }

    #[inline]
    fn set_cap_log2(&mut self, log2: u8) {
        self.cap = (self.cap & Self::FLAGS) | log2;
    }

    /// Whether the node was checked for threats.
    #[inline]
    pub fn threats_checked(&self) -> bool {
        self.cap & Self::THREATS_CHECKED != 0
    }

    /// Records the threat check: `threatened` if the opponent threatens.
    #[inline]
    pub fn set_threats_checked(&mut self, threatened: bool) {
        self.cap |= Self::THREATS_CHECKED;
        if threatened {
            self.cap |= Self::THREATENED;
        }
    }

    /// Whether the side to move here faces an immediate threat.
    #[inline]
    pub fn threatened(&self) -> bool {
        self.cap & Self::THREATENED != 0
    }

    /// Whether a thread is planning this node's next expansion.
    #[inline]
    pub fn expanding(&self) -> bool {
        self.cap & Self::EXPANDING != 0
    }

    /// Marks (or clears) a planned expansion.
    #[inline]
    pub fn set_expanding(&mut self, on: bool) {
        self.cap = (self.cap & !Self::EXPANDING) | if on { Self::EXPANDING } else { 0 };
    }

    fn new(mv: u16) -> Self {
        Node {
            visits: 0,
            wins2: 0,
            first: NONE,
            accel: NONE,
            len: 0,
            mv,
            cursor: 0,
            cap: 0,
            proof: Proof::Unknown,
        }
    }
}

/// Size classes of child blocks: 1, 2, 4, ... 65,536 nodes.
const CLASSES: usize = 17;

/// The arena.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    pub nodes: Vec<Node>,
    /// Head of the free list of each block size class.
    free: [u32; CLASSES],
    /// Live nodes (the root and every child ever added).
    count: usize,
}

impl Tree {
    /// A tree holding only a root, with room reserved for `reserve` slots.
    pub fn new(reserve: usize) -> Self {
        let mut nodes = Vec::with_capacity(reserve.max(1));
        nodes.push(Node::new(0));
        Tree {
            nodes,
            free: [NONE; CLASSES],
            count: 1,
        }
    }

    /// Number of live nodes.
    #[inline]
    pub fn count(&self) -> usize {
        self.count
    }

    /// Arena slots in use, including spare room in blocks and freed blocks.
    pub fn slots(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes of the arena in use (slots never written to are not counted:
    /// the system gives them no memory until they are).
    pub fn bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>()
    }

    #[inline]
    pub fn node(&self, i: u32) -> &Node {
        &self.nodes[i as usize]
    }

    #[inline]
    pub fn node_mut(&mut self, i: u32) -> &mut Node {
        &mut self.nodes[i as usize]
    }

    /// The children of `i`.
    #[inline]
    pub fn children(&self, i: u32) -> &[Node] {
        let n = self.node(i);
        if n.len == 0 {
            return &[];
        }
        &self.nodes[n.first as usize..n.first as usize + n.len as usize]
    }

    /// Adds a child with move id `mv` to `parent` and returns its index.
    /// May move `parent`'s other children (never `parent` itself).
    pub fn add_child(&mut self, parent: u32, mv: u16) -> u32 {
        let Node { first, len, .. } = *self.node(parent);
        let cap_log2 = self.node(parent).cap_log2();
        let first = if len == 0 {
            self.node_mut(parent).set_cap_log2(0);
            self.alloc(0)
        } else if u32::from(len) == 1 << cap_log2 {
            let block = self.alloc(cap_log2 + 1);
            self.nodes.copy_within(
                first as usize..first as usize + len as usize,
                block as usize,
            );
            self.release(first, cap_log2);
            self.node_mut(parent).set_cap_log2(cap_log2 + 1);
            block
        } else {
            first
        };
        let slot = first + u32::from(len);
        self.nodes[slot as usize] = Node::new(mv);
        let p = self.node_mut(parent);
        p.first = first;
        p.len = len + 1;
        self.count += 1;
        slot
    }

    fn alloc(&mut self, class: u8) -> u32 {
        let head = self.free[class as usize];
        if head != NONE {
            self.free[class as usize] = self.node(head).first;
            return head;
        }
        let start = self.nodes.len();
        assert!(start + (1 << class) < NONE as usize, "tree arena full");
        self.nodes.resize(start + (1 << class), Node::new(0));
        start as u32
    }

    fn release(&mut self, block: u32, class: u8) {
        self.node_mut(block).first = self.free[class as usize];
        self.free[class as usize] = block;
    }

    /// A fresh, compact tree holding a copy of the subtree under `new_root`
    /// (which becomes the root). Max-tree links are dropped: they are rebuilt
    /// on demand.
    pub fn extract(&self, new_root: u32) -> Tree {
        let size = self.subtree_size(new_root);
        let mut out = Tree::new(size + size / 2);
        out.nodes[0] = Node {
            first: NONE,
            accel: NONE,
            len: 0,
            ..*self.node(new_root)
        };
        // (old index, new index) of copied nodes whose children still need copying.
        let mut stack = vec![(new_root, ROOT)];
        while let Some((old, new)) = stack.pop() {
            let n = *self.node(old);
            if n.len == 0 {
                continue;
            }
            let class = (n.len as u32).next_power_of_two().trailing_zeros() as u8;
            let block = out.alloc(class);
            for k in 0..u32::from(n.len) {
                let child = *self.node(n.first + k);
                out.nodes[(block + k) as usize] = Node {
                    first: NONE,
                    accel: NONE,
                    len: 0,
                    ..child
                };
                stack.push((n.first + k, block + k));
            }
            let dst = out.node_mut(new);
            dst.first = block;
            dst.len = n.len;
            dst.set_cap_log2(class);
        }
        out.count = size;
        out
    }

    /// Number of nodes in the subtree under `i`, `i` included.
    pub fn subtree_size(&self, i: u32) -> usize {
        let mut stack = vec![i];
        let mut size = 0;
        while let Some(i) = stack.pop() {
            size += 1;
            let n = self.node(i);
            stack.extend((0..u32::from(n.len)).map(|k| n.first + k));
        }
        size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_is_24_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 24);
    }

    #[test]
    fn children_grow_and_blocks_are_reused() {
        let mut t = Tree::new(0);
        for mv in 0..5 {
            let c = t.add_child(ROOT, mv);
            assert_eq!(t.node(c).mv, mv);
        }
        let moves: Vec<u16> = t.children(ROOT).iter().map(|n| n.mv).collect();
        assert_eq!(moves, [0, 1, 2, 3, 4]);
        assert_eq!(t.count(), 6);
        // Blocks of 1, 2 and 4 were freed on the way to 8; a child of the
        // first child takes the freed block of 1 instead of growing the arena.
        let slots = t.slots();
        let first = t.node(ROOT).first;
        let g = t.add_child(first, 9);
        assert_eq!(t.slots(), slots);
        assert_eq!(t.node(g).mv, 9);
        assert_eq!(t.children(first)[0].mv, 9);
    }

    #[test]
    fn extract_copies_the_subtree() {
        let mut t = Tree::new(0);
        let a = t.add_child(ROOT, 1);
        t.add_child(ROOT, 2);
        let a = {
            // `a` may have moved when its sibling was added.
            let _ = a;
            t.node(ROOT).first
        };
        t.node_mut(a).visits = 7;
        for mv in 10..13 {
            let c = t.add_child(a, mv);
            t.node_mut(c).visits = u32::from(mv);
        }
        let c0 = t.node(a).first;
        t.add_child(c0, 20);
        assert_eq!(t.subtree_size(a), 5);
        let e = t.extract(a);
        assert_eq!(e.count(), 5);
        assert_eq!(e.node(ROOT).visits, 7);
        assert_eq!(e.node(ROOT).mv, 1);
        let kids: Vec<(u16, u32)> = e.children(ROOT).iter().map(|n| (n.mv, n.visits)).collect();
        assert_eq!(kids, [(10, 10), (11, 11), (12, 12)]);
        assert_eq!(e.children(e.node(ROOT).first)[0].mv, 20);
    }

    #[test]
    fn threat_flags_survive_block_growth_and_extraction() {
        let mut t = Tree::new(0);
        t.node_mut(ROOT).set_threats_checked(true);
        for mv in 0..5 {
            t.add_child(ROOT, mv);
        }
        let root = t.node(ROOT);
        assert!(root.threats_checked() && root.threatened());
        assert_eq!(root.cap_log2(), 3, "5 children live in a block of 8");
        let first = root.first;
        t.node_mut(first).set_threats_checked(false);
        let e = t.extract(first);
        assert!(e.node(ROOT).threats_checked() && !e.node(ROOT).threatened());
        assert!(!t.node(first + 1).threats_checked());
    }
}
