import Foundation
import Sim

/// One replication of one trace: the unit of work that `--jobs` spreads over threads and
/// `--shard` spreads over machines.
public struct WorkItem: Sendable, Equatable {
    /// 0-based replication.
    public var replication: Int
    /// Index into the scenario's traces.
    public var traceIndex: Int

    /// Creates a work item.
    public init(replication: Int, traceIndex: Int) {
        self.replication = replication
        self.traceIndex = traceIndex
    }
}

/// The outcome of one work item.
public struct RunResult: Sendable {
    /// What was run.
    public var item: WorkItem
    /// The trace file replayed.
    public var tracePath: String
    /// Totals of the replication.
    public var summary: ReplicationSummary
    /// Everything measured.
    public var observations: ObservationBuffer
    /// Wall-clock seconds the replication took (not part of any deterministic comparison).
    public var wallSeconds: Double
}

/// Runs a scenario's work items, on several threads if asked, and returns the results in
/// work-item order whatever the thread count: the report is the same for any `--jobs`.
public enum ScenarioRunner {
    /// The work items of a scenario: every replication of every trace, replication-major.
    public static func workItems(replications: Int, traceCount: Int) -> [WorkItem] {
        (0..<replications).flatMap { r in (0..<traceCount).map { WorkItem(replication: r, traceIndex: $0) } }
    }

    /// Runs `items` of `scenario` on `jobs` threads.
    /// - Throws: the error of the earliest failing work item (a bad trace line, say).
    public static func run(_ scenario: Scenario, items: [WorkItem], jobs: Int,
                           keepTasks: Bool = true) throws -> [RunResult] {
        precondition(jobs >= 1)
        let slots = ResultSlots(count: items.count)
        let workers = min(jobs, max(items.count, 1))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = slots.claim() {
                let item = items[index]
                do {
                    slots.store(.success(try runOne(scenario, item: item, keepTasks: keepTasks)), at: index)
                } catch {
                    slots.store(.failure(error), at: index)
                }
            }
        }
        return try slots.results.map { try $0!.get() }
    }

    /// Runs one work item on the calling thread.
    public static func runOne(_ scenario: Scenario, item: WorkItem, keepTasks: Bool = true) throws -> RunResult {
        let started = DispatchTime.now().uptimeNanoseconds
        let path = scenario.traces[item.traceIndex]
        let reader = try TraceFileReader(path: path)
        let header = reader.header
        var source = DictationAudioResolver(reader)
        var sink = ObservationBuffer(keepsTasks: keepTasks)
        var simulation = KeyboardSimulation(config: scenario.keyboard, seed: scenario.seed, replication: item.replication,
                                            traceKey: try traceKey(path), header: header)
        let summary: ReplicationSummary
        do {
            summary = try simulation.run(&source, into: &sink)
        } catch let limit as RunLimitError {
            throw ReplicationLimitError(scenarioPath: scenario.path, tracePath: path, replication: item.replication, limit: limit)
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return RunResult(item: item, tracePath: path, summary: summary, observations: sink, wallSeconds: wall)
    }
}

extension ScenarioRunner {
    /// The key of a trace's random streams: the first 16 hex digits of its content hash
    /// (`ScenarioFingerprint.filesHash` of the file alone). Keyed by content, a trace draws
    /// the same numbers at any place in a scenario's list, and two traces never share draws.
    public static func traceKey(_ path: String) throws -> String {
        String(try ScenarioFingerprint.filesHash([path]).prefix(16))
    }
}

/// Result slots filled by worker threads, claimed through a shared counter.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var failed = false
    private(set) var results: [Result<RunResult, Error>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func claim() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        // After a failure the remaining items are skipped; the error of the earliest failed
        // item is rethrown, and items before it all ran, so the error is the same for any N.
        guard next < results.count, !failed else { return nil }
        next += 1
        return next - 1
    }

    func store(_ result: Result<RunResult, Error>, at index: Int) {
        lock.lock()
        defer { lock.unlock() }
        results[index] = result
        if case .failure = result { failed = true }
    }
}
