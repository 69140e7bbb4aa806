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

    /// Runs `items` of `scenario` on `jobs` threads, their records in blocks of one arena.
    /// - Throws: the error of the earliest failing work item (a bad trace line, say).
    public static func run(_ scenario: Scenario, items: [WorkItem], jobs: Int,
                           keepTasks: Bool = true) throws -> [RunResult] {
        precondition(jobs >= 1)
        let arena = RecordArena()
        let traceCache = TraceCache(eventsMax: items.count > scenario.traces.count ? TraceCache.eventsMaxForReplays : 0)
        let slots = ResultSlots<RunResult>(count: items.count)
        let workers = min(jobs, max(items.count, 1))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = slots.claim() {
                let item = items[index]
                do {
                    let result = try runOne(scenario, item: item, keepTasks: keepTasks, arena: arena, traceCache: traceCache)
                    slots.store(.success(result), at: index)
                } catch {
                    slots.store(.failure(error), at: index)
                }
            }
        }
        return try slots.results.map { try $0!.get() }
    }

    /// Runs one work item on the calling thread; its record lists take their blocks from
    /// `arena` (the caller's, shared by the items it runs) when given, and its trace's key
    /// from `traceCache` (the caller's, so that each trace is hashed — and, when the cache
    /// keeps events, read — once, not once per replication), whose `simulationCaches` the
    /// simulation uses.
    public static func runOne(_ scenario: Scenario, item: WorkItem, keepTasks: Bool = true,
                              arena: RecordArena? = nil, traceCache: TraceCache? = nil) throws -> RunResult {
        let started = DispatchTime.now().uptimeNanoseconds
        var sink = ObservationBuffer(keepsTasks: keepTasks, arena: arena)
        // The runs' trace sources stay concrete types: the simulation is generic over its
        // source, and an existential would cost a dynamic call per event.
        func simulate<Source: TraceEventSource>(_ source: inout Source, header: TraceHeader?, key: String,
                                                path: String) throws -> ReplicationSummary {
            var simulation = KeyboardSimulation(config: scenario.keyboard, seed: scenario.seed, replication: item.replication,
                                                traceKey: key, header: header,
                                                caches: traceCache?.simulationCaches ?? SimulationCaches())
            do {
                return try simulation.run(&source, into: &sink)
            } catch let limit as RunLimitError {
                throw ReplicationLimitError(scenarioPath: scenario.path, tracePath: path, replication: item.replication, limit: limit)
            }
        }
        // A trace file: its events as an earlier replication kept them, or read from the file
        // (and kept for later replications when the cache has room).
        func replay(_ file: String, path: String) throws -> ReplicationSummary {
            let key = try traceCache?.key(file) ?? traceKey(file)
            if let kept = traceCache?.events(file) {
                var source = ArrayTraceSource(kept.events)
                return try simulate(&source, header: kept.header, key: key, path: path)
            }
            let reader = try TraceFileReader(path: file)
            let header = reader.header
            if let traceCache, traceCache.keepsEvents {
                var source = RecordingSource(DictationAudioResolver(reader), limit: TraceCache.eventsMaxForReplays)
                let summary = try simulate(&source, header: header, key: key, path: path)
                if source.ended && !source.overflowed { traceCache.keep(file, header: header, events: source.events) }
                return summary
            }
            var source = DictationAudioResolver(reader)
            return try simulate(&source, header: header, key: key, path: path)
        }
        let path: String
        let summary: ReplicationSummary
        switch scenario.traceEntries[item.traceIndex] {
        case .file(let file):
            path = file
            summary = try replay(file, path: file)
        case .population(let population):
            let draw = population.draw(seed: scenario.seed, replication: item.replication)
            path = draw.description(populationLabel: population.label)
            switch draw {
            case .trace(let file):
                summary = try replay(file, path: path)
            case .synthesis(let synthesis, let text):
                // The same session under every policy of a job: synthesised and keyed once.
                let name = "population \(population.key): \(path)"
                let session = try traceCache?.session(name) ?? {
                    let (header, events) = synthesis.trace(of: text.script)
                    let session = TraceCache.Session(header: header, events: events, key: try traceKey(header: header, events: events))
                    traceCache?.keep(session: session, as: name)
                    return session
                }()
                // Dictation clips are beside the text, as its `@dictate` lines name them.
                var source = DictationAudioResolver(ArrayTraceSource(session.events), tracePath: text.path) { _ in nil }
                summary = try simulate(&source, header: session.header, key: session.key, path: path)
            }
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return RunResult(item: item, tracePath: path, summary: summary, observations: sink, wallSeconds: wall)
    }
}

extension ScenarioRunner {
    /// The key of a trace's random streams: the first 16 hex digits of its content hash
    /// (`ScenarioFingerprint.filesHash` of the file alone). Keyed by content, a trace draws
    /// the same numbers at any place in a scenario's list, and two traces never share draws.
    /// Measured costs (`measure` lines) are left out of the content, so that a trace with
    /// them replays exactly as the same trace without them.
    public static func traceKey(_ path: String) throws -> String {
        guard let content = try TraceMeasurement.replayContent(path: path) else {
            return String(try ScenarioFingerprint.filesHash([path]).prefix(16))
        }
        return key(content: content)
    }

    /// The key of a trace held in memory: the key its file would have, as
    /// `TraceFileWriter` writes it (uncompressed).
    /// - Throws: `InputError` when an event cannot be written (out of time order).
    public static func traceKey(header: TraceHeader, events: [TraceEvent]) throws -> String {
        let sink = MemoryByteSink()
        let writer = try TraceFileWriter(sink: sink, header: header)
        for event in events { try writer.write(event) }
        try writer.commit()
        return key(content: sink.bytes)
    }

    /// The scheme of `filesHash` for one file: its length (8 bytes, little-endian), then its bytes.
    private static func key(content: [UInt8]) -> String {
        var hasher = SHA256()
        hasher.update((0..<8).map { UInt8(truncatingIfNeeded: UInt64(content.count) >> (8 * UInt64($0))) })
        hasher.update(content)
        return String(hasher.finalizeHex().prefix(16))
    }
}

/// What a job knows of the traces it replays, shared by its worker threads: each trace's
/// key (`ScenarioRunner.traceKey`), computed the first time a replication asks for it, and —
/// when the job replays its traces more than once — their events as the first replication
/// read them, so that later replications neither parse the file nor analyse its audio again;
/// and the memos its simulations share (`SimulationCaches`: the words of the traces'
/// intended texts, the digests of language files), made with the job and gone with it; and
/// the sessions it synthesised for a population, so that the same replication under the
/// job's other policies replays it without synthesising it again.
///
/// A job reads its traces as they are when it starts them. Events are kept only for
/// traces that end cleanly and only up to `eventsMax` events over all traces: a long
/// recording streams from its file in every replication, in flat memory.
public final class TraceCache: @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [String: String] = [:]
    private var events: [String: (header: TraceHeader, events: [TraceEvent])] = [:]
    private var sessions: [String: Session] = [:]
    private var eventsHeld = 0
    /// The most events held over all traces (about 64 bytes each, plus their text).
    private let eventsMax: Int
    /// The memos of pure functions every simulation of the job shares.
    public let simulationCaches = SimulationCaches()

    /// An empty cache that keeps no events.
    public convenience init() { self.init(eventsMax: 0) }

    /// An empty cache keeping up to `eventsMax` events of the traces replayed.
    public init(eventsMax: Int) { self.eventsMax = eventsMax }

    /// The most events a job that replays its traces repeatedly keeps:
    /// about 16 MB, hours of typing.
    public static let eventsMaxForReplays = 200_000

    /// The key of the trace at `path`.
    /// - Throws: `InputError` when the trace cannot be read.
    public func key(_ path: String) throws -> String {
        lock.lock()
        let known = keys[path]
        lock.unlock()
        if let known { return known }
        let key = try ScenarioRunner.traceKey(path)
        lock.lock()
        keys[path] = key
        lock.unlock()
        return key
    }

    /// The events of the trace at `path` as an earlier replication read them, if kept.
    func events(_ path: String) -> (header: TraceHeader, events: [TraceEvent])? {
        lock.lock()
        defer { lock.unlock() }
        return events[path]
    }

    /// Whether there is room left to keep the events of another trace.
    var keepsEvents: Bool {
        lock.lock()
        defer { lock.unlock() }
        return eventsHeld < eventsMax
    }

    /// A session synthesised for a population, with its key.
    struct Session {
        var header: TraceHeader
        var events: [TraceEvent]
        var key: String
    }

    /// The session kept as `name`, if an earlier run of the job synthesised it.
    func session(_ name: String) -> Session? {
        lock.lock()
        defer { lock.unlock() }
        return sessions[name]
    }

    /// Keeps a synthesised session for the job's other runs of it (the same replication
    /// under its other policies), room permitting: within the same `eventsMax` as traces.
    func keep(session: Session, as name: String) {
        lock.lock()
        defer { lock.unlock() }
        guard sessions[name] == nil, eventsHeld + session.events.count <= eventsMax else { return }
        sessions[name] = session
        eventsHeld += session.events.count
    }

    /// Keeps the events a replication read from `path` to its end, room permitting.
    func keep(_ path: String, header: TraceHeader, events read: [TraceEvent]) {
        lock.lock()
        defer { lock.unlock() }
        guard events[path] == nil, eventsHeld + read.count <= eventsMax else { return }
        events[path] = (header, read)
        eventsHeld += read.count
    }
}

/// A trace source that keeps a copy of every event it hands on, up to a limit (past it,
/// it stops keeping and says so).
struct RecordingSource<Base: TraceEventSource>: TraceEventSource {
    var base: Base
    let limit: Int
    private(set) var events: [TraceEvent] = []
    private(set) var overflowed = false
    private(set) var ended = false

    init(_ base: Base, limit: Int) {
        self.base = base
        self.limit = limit
    }

    mutating func next() throws -> TraceEvent? {
        guard let event = try base.next() else {
            ended = true
            return nil
        }
        if !overflowed {
            if events.count < limit { events.append(event) } else { overflowed = true; events = [] }
        }
        return event
    }
}

/// Result slots filled by worker threads, claimed through a shared counter (a run's work
/// items, a fleet's partitions).
final class ResultSlots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var failed = false
    private(set) var results: [Result<Value, Error>?]

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

    func store(_ result: Result<Value, Error>, at index: Int) {
        lock.lock()
        defer { lock.unlock() }
        results[index] = result
        if case .failure = result { failed = true }
    }
}
