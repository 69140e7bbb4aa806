/// Which slice of a job's work items one process runs: `--shard K/N`, or a cluster's
/// array-job environment.
///
/// A job (a run, a comparison, a sweep) is a list of independent work items in a fixed
/// order. Shard K of N runs the items whose 0-based position `i` has `i % N == K - 1`:
/// round-robin rather than contiguous blocks, so that a sweep whose points differ in cost
/// still gives every shard about the same work. The slice depends only on (K, N) and the
/// list, never on timing, so `keysim merge` can put the shards' runs back in list order.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 0-based index of this shard.
    public let index: Int
    /// Number of shards.
    public let count: Int

    /// The most shards a job may be split into: more than any array job needs, and small
    /// enough that a typo (`--shard 1/100000000`) is caught.
    public static let countMax = 100_000

    /// The whole job: one shard of one.
    public static let whole = Shard(index: 0, count: 1)

    /// Creates shard `index` (0-based) of `count`.
    /// - Precondition: `0 <= index < count <= countMax`.
    public init(index: Int, count: Int) {
        precondition(count >= 1 && count <= Self.countMax && index >= 0 && index < count,
                     "shard \(index) of \(count) is out of range")
        self.index = index
        self.count = count
    }

    /// Whether this is the whole job rather than a slice of it.
    public var isWhole: Bool { count == 1 }

    /// `K/N` with K counted from 1, as `--shard` takes it.
    public var description: String { "\(index + 1)/\(count)" }

    /// Whether the work item at 0-based `position` belongs to this shard.
    @inline(__always)
    public func contains(_ position: Int) -> Bool { position % count == index }

    /// The positions of this shard's items in a list of `total`, in list order.
    public func positions(of total: Int) -> StrideTo<Int> { stride(from: index, to: total, by: count) }

    /// How many of `total` items this shard runs.
    public func itemCount(of total: Int) -> Int { total > index ? (total - index + count - 1) / count : 0 }

    /// The report file of this shard: `out.sqlite` becomes `out.shard-2-of-4.sqlite`, so
    /// that shards never share a file (SQLite locking over network file systems is not to be
    /// trusted) and `keysim merge out.sqlite out.shard-*-of-4.sqlite` finds them all.
    public func reportPath(for path: String) -> String {
        guard !isWhole else { return path }
        let suffix = ".shard-\(index + 1)-of-\(count)"
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        if let dot = path[slash...].lastIndex(of: "."), dot != slash {
            return String(path[..<dot]) + suffix + String(path[dot...])
        }
        return path + suffix
    }

    /// Parses `K/N` (K from 1 to N).
    /// - Throws: `ShardError` naming what is wrong.
    public static func parse(_ text: String) throws(ShardError) -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw ShardError("--shard needs K/N, such as 2/8 (shard 2 of 8), not '\(text)'")
        }
        return try make(oneBased: k, count: n, source: "--shard \(text)")
    }

    /// The shard the environment selects, or `nil` when it selects none.
    ///
    /// - Slurm job arrays: `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT`; the index is
    ///   counted from `SLURM_ARRAY_TASK_MIN` in steps of `SLURM_ARRAY_TASK_STEP`, so
    ///   `--array=0-7` and `--array=1-8` both give shards 1/8 … 8/8.
    /// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` (0-based) with the count in
    ///   `KEYSIM_SHARD_COUNT` (set it to the Job's `completions`).
    /// - Throws: `ShardError` when the variables are present but inconsistent.
    public static func fromEnvironment(_ environment: [String: String]) throws(ShardError) -> Shard? {
        if let id = environment["SLURM_ARRAY_TASK_ID"] {
            guard let task = Int(id) else { throw ShardError("SLURM_ARRAY_TASK_ID is '\(id)', not a whole number") }
            guard let countText = environment["SLURM_ARRAY_TASK_COUNT"], let count = Int(countText) else {
                throw ShardError("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not a whole number; pass --shard K/N")
            }
            let minimum = environment["SLURM_ARRAY_TASK_MIN"].flatMap { Int($0) } ?? 0
            let step = max(1, environment["SLURM_ARRAY_TASK_STEP"].flatMap { Int($0) } ?? 1)
            guard task >= minimum, (task - minimum) % step == 0 else {
                throw ShardError("SLURM_ARRAY_TASK_ID \(task) is not in the array \(minimum), \(minimum + step), …")
            }
            return try make(oneBased: (task - minimum) / step + 1, count: count, source: "SLURM_ARRAY_TASK_ID \(task)")
        }
        if let indexText = environment["JOB_COMPLETION_INDEX"] {
            guard let index = Int(indexText) else {
                throw ShardError("JOB_COMPLETION_INDEX is '\(indexText)', not a whole number")
            }
            guard let countText = environment["KEYSIM_SHARD_COUNT"] else {
                throw ShardError("JOB_COMPLETION_INDEX is set but KEYSIM_SHARD_COUNT is not: set it to the Job's completions, or pass --shard K/N")
            }
            guard let count = Int(countText) else {
                throw ShardError("KEYSIM_SHARD_COUNT is '\(countText)', not a whole number")
            }
            return try make(oneBased: index + 1, count: count, source: "JOB_COMPLETION_INDEX \(index)")
        }
        return nil
    }

    private static func make(oneBased k: Int, count n: Int, source: String) throws(ShardError) -> Shard {
        guard n >= 1, n <= countMax else { throw ShardError("\(source): the shard count must be from 1 to \(countMax), not \(n)") }
        guard k >= 1, k <= n else { throw ShardError("\(source): shard \(k) is out of range 1...\(n)") }
        return Shard(index: k - 1, count: n)
    }
}

/// A bad `--shard` or sharding environment.
public struct ShardError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong.
    public let message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
