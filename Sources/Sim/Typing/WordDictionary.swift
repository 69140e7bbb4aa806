/// A word-frequency dictionary: lower-cased words with their counts, and a prefix trie that
/// answers "the top 3 completions of this prefix" in O(1) per typed byte.
///
/// A word's *rank* is its position in (count descending, word ascending) order, the order of
/// the dictionary file (see `docs/models.md`, "Typing quality"); rank 0 is the most frequent
/// word. Every trie node (a prefix, in UTF-8 bytes) stores the ranks of its three most
/// frequent completions, computed once at construction, so the suggestion bar for a prefix
/// is read without searching, sorting or allocating.
///
/// - Complexity: construction O(total UTF-8 bytes of the words · log) ; `child(of:byte:)`
///   O(1) for an ASCII byte at a node with many edges (the root, most short prefixes), else
///   O(edges of the node), usually a few; `top(_:)` and `isCompletion(rank:of:)` O(1).
public struct WordDictionary: Sendable, Equatable {
    /// How many completions a node keeps: the bar has three slots.
    public static let barSize = 3
    /// The node of the empty prefix.
    public static let root: Int32 = 0
    /// "No node": a prefix no word starts with.
    public static let none: Int32 = -1

    /// The words by rank.
    public let words: [String]
    /// The counts by rank.
    public let counts: [Int]
    /// The dictionary's language (from its `# language:` line), or "".
    public let language: String

    // The trie, its nodes numbered in depth-first preorder with edges in byte order, so a
    // node's subtree is the contiguous range `node..<subtreeEnd[node]`.
    private let firstEdge: [Int32]          // by node: index of its first edge
    private let edgeCount: [UInt16]         // by node
    private let edgeBytes: [UInt8]          // by edge
    private let edgeTargets: [Int32]        // by edge
    private let subtreeEnd: [Int32]         // by node
    private let topRanks: [Int32]           // by node × barSize, -1 where fewer completions
    private let terminalOf: [Int32]         // by rank: the node where the word ends
    private let wordAt: [Int32]             // by node: the rank of the word ending there, or -1
    // Nodes with many edges (the root has one per initial letter) look an ASCII byte up in a
    // row of their own instead of scanning: `denseRow` by node (-1: scan), rows of
    // `denseRowWidth` targets, one per ASCII byte.
    private let denseRow: [Int32]
    private let denseTargets: [Int32]
    /// The fewest edges that earn a node a dense row: 216 of the bundled English dictionary's
    /// 33,739 nodes, 108 KiB of rows.
    static let denseEdgesMin = 8
    static let denseRowWidth = 128

    /// Builds a dictionary from words and counts. Words must be unique, non-empty and
    /// lower-cased (the file reader and the builder make sure); counts positive.
    /// The entries are ranked by count descending, then word ascending (by UTF-8 bytes).
    public init(entries: [(word: String, count: Int)], language: String = "") {
        func ranksBefore(_ a: (word: String, count: Int), _ b: (word: String, count: Int)) -> Bool {
            a.count != b.count ? a.count > b.count : a.word.utf8.lexicographicallyPrecedes(b.word.utf8)
        }
        // Dictionary files hold their entries in rank order already: no sort to pay then.
        let inOrder = zip(entries, entries.dropFirst()).allSatisfy { !ranksBefore($1, $0) }
        let ranked = inOrder ? entries : entries.sorted(by: ranksBefore)
        words = ranked.map(\.word)
        counts = ranked.map(\.count)
        self.language = language

        // The trie is built in depth-first preorder directly: words inserted in byte order
        // create their nodes in preorder, each node's children in byte order.
        let bytes = words.map { Array($0.utf8) }
        let byBytes = bytes.indices.sorted { bytes[$0].lexicographicallyPrecedes(bytes[$1]) }
        var parentOf: [Int32] = [-1]                    // by node
        var byteOf: [UInt8] = [0]                       // by node: the byte of its incoming edge
        var terminal = [Int32](repeating: 0, count: words.count)
        var path: [Int32] = [Self.root]                 // path[d]: the node of the last word's first d bytes
        var previous: [UInt8] = []
        for rank in byBytes {
            let word = bytes[rank]
            var shared = 0
            while shared < min(word.count, previous.count) && word[shared] == previous[shared] { shared += 1 }
            path.removeSubrange((shared + 1)...)
            for depth in shared..<word.count {
                let node = Int32(parentOf.count)
                parentOf.append(path[depth])
                byteOf.append(word[depth])
                path.append(node)
            }
            terminal[rank] = path[word.count]
            previous = word
        }
        let nodeCount = parentOf.count
        // Edges grouped by parent; a parent's children come in ascending node order, which is
        // byte order.
        var edgeCount = [UInt16](repeating: 0, count: nodeCount)
        for node in 1..<nodeCount { edgeCount[Int(parentOf[node])] += 1 }
        var firstEdge = [Int32](repeating: 0, count: nodeCount)
        var edges: Int32 = 0
        for node in 0..<nodeCount {
            firstEdge[node] = edges
            edges += Int32(edgeCount[node])
        }
        var edgeBytes = [UInt8](repeating: 0, count: Int(edges))
        var edgeTargets = [Int32](repeating: 0, count: Int(edges))
        var filled = [Int32](repeating: 0, count: nodeCount)
        for node in 1..<nodeCount {
            let parent = Int(parentOf[node])
            let edge = Int(firstEdge[parent] + filled[parent])
            filled[parent] += 1
            edgeBytes[edge] = byteOf[node]
            edgeTargets[edge] = Int32(node)
        }
        // The three smallest ranks in each node's subtree (its own word included), children
        // before parents: a node's list is final when it is merged into its parent's.
        var wordAt = [Int32](repeating: -1, count: nodeCount)
        for (rank, node) in terminal.enumerated() { wordAt[Int(node)] = Int32(rank) }
        var topRanks = [Int32](repeating: -1, count: nodeCount * Self.barSize)
        func insert(_ rank: Int32, into node: Int) {
            let base = node * Self.barSize
            var slot = Self.barSize - 1
            guard topRanks[base + slot] < 0 || rank < topRanks[base + slot] else { return }
            while slot > 0 && (topRanks[base + slot - 1] < 0 || rank < topRanks[base + slot - 1]) {
                topRanks[base + slot] = topRanks[base + slot - 1]
                slot -= 1
            }
            topRanks[base + slot] = rank
        }
        for node in stride(from: nodeCount - 1, through: 0, by: -1) {
            if wordAt[node] >= 0 { insert(wordAt[node], into: node) }
            guard node > 0 else { continue }
            for slot in 0..<Self.barSize {
                let rank = topRanks[node * Self.barSize + slot]
                guard rank >= 0 else { break }
                insert(rank, into: Int(parentOf[node]))
            }
        }
        // Subtree ends, children before parents: walk the preorder backwards.
        var subtreeEnd = [Int32](repeating: 0, count: nodeCount)
        for node in stride(from: nodeCount - 1, through: 0, by: -1) {
            let count = Int(edgeCount[node])
            subtreeEnd[node] = count == 0 ? Int32(node + 1) : subtreeEnd[Int(edgeTargets[Int(firstEdge[node]) + count - 1])]
        }
        self.firstEdge = firstEdge
        self.edgeCount = edgeCount
        self.edgeBytes = edgeBytes
        self.edgeTargets = edgeTargets
        self.subtreeEnd = subtreeEnd
        self.topRanks = topRanks
        terminalOf = terminal
        self.wordAt = wordAt
        var denseRow = [Int32](repeating: -1, count: nodeCount)
        var denseTargets: [Int32] = []
        for node in 0..<nodeCount where Int(edgeCount[node]) >= Self.denseEdgesMin {
            denseRow[node] = Int32(denseTargets.count / Self.denseRowWidth)
            var row = [Int32](repeating: Self.none, count: Self.denseRowWidth)
            let first = Int(firstEdge[node])
            for edge in first..<(first + Int(edgeCount[node])) where Int(edgeBytes[edge]) < Self.denseRowWidth {
                row[Int(edgeBytes[edge])] = edgeTargets[edge]
            }
            denseTargets += row
        }
        self.denseRow = denseRow
        self.denseTargets = denseTargets
    }

    /// The number of words.
    public var count: Int { words.count }

    /// The node of `prefix` extended by one UTF-8 byte, or `none`.
    @inline(__always)
    public func child(of node: Int32, byte: UInt8) -> Int32 {
        guard node >= 0 else { return Self.none }
        let row = denseRow[Int(node)]
        if row >= 0 && Int(byte) < Self.denseRowWidth { return denseTargets[Int(row) &* Self.denseRowWidth &+ Int(byte)] }
        let first = Int(firstEdge[Int(node)])
        for edge in first..<(first + Int(edgeCount[Int(node)])) where edgeBytes[edge] == byte { return edgeTargets[edge] }
        return Self.none
    }

    /// The node of a prefix given as UTF-8 bytes, or `none` when no word starts with it.
    public func node<Bytes: Sequence>(forUTF8 bytes: Bytes) -> Int32 where Bytes.Element == UInt8 {
        var node = Self.root
        for byte in bytes {
            node = child(of: node, byte: byte)
            if node < 0 { return Self.none }
        }
        return node
    }

    /// The rank of slot `slot` (0, 1, 2) of the bar for `node`, or -1 when the prefix has
    /// fewer completions. The plain bar, before any re-ranking.
    @inline(__always)
    public func top(_ node: Int32, slot: Int) -> Int32 {
        node < 0 ? -1 : topRanks[Int(node) * Self.barSize + slot]
    }

    /// Whether the plain bar for `node` holds the word of rank `rank`.
    @inline(__always)
    public func barHolds(_ node: Int32, rank: Int32) -> Bool {
        guard node >= 0, rank >= 0 else { return false }
        let base = Int(node) * Self.barSize
        return topRanks[base] == rank || topRanks[base + 1] == rank || topRanks[base + 2] == rank
    }

    /// Whether the word of rank `rank` starts with the prefix of `node` (is one of its
    /// candidates, which the re-ranker may lift into the bar).
    @inline(__always)
    public func isCompletion(rank: Int32, of node: Int32) -> Bool {
        guard node >= 0, rank >= 0 else { return false }
        let terminal = terminalOf[Int(rank)]
        return terminal >= node && terminal < subtreeEnd[Int(node)]
    }

    /// The rank of `word` (already lower-cased), or nil when it is not in the dictionary.
    public func rank(of word: some StringProtocol) -> Int32? {
        // Walked over contiguous bytes where the string has them: iterating a UTF8View is
        // several times slower than the walk itself.
        let node = word.utf8.withContiguousStorageIfAvailable { self.node(forUTF8: $0) } ?? self.node(forUTF8: word.utf8)
        guard node >= 0 else { return nil }
        let rank = wordAt[Int(node)]
        return rank < 0 ? nil : rank
    }

    /// The plain bar for a prefix (lower-cased), most frequent first: for tests and docs.
    public func completions(of prefix: String) -> [String] {
        let node = node(forUTF8: prefix.utf8)
        return (0..<Self.barSize).compactMap { slot in
            let rank = top(node, slot: slot)
            return rank < 0 ? nil : words[Int(rank)]
        }
    }
}
