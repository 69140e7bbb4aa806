import Foundation
import Scenarios
import Sim

/// One variant of a job's scenario: the whole scenario of `keysim run`, one side of a
/// comparison, one point of a sweep. Each becomes one batch in the report.
public struct JobBatch: Sendable {
    /// How tables name it: a policy, a file name, `debounce.otherwiseMs=250`.
    public var label: String
    /// The scenario, with the job's seed and replications.
    public var scenario: Scenario
    /// The sweep settings of this point as a JSON object (`{}` otherwise).
    public var settingsJSON: String
    /// SHA-256 of the resolved scenario.
    public var scenarioHash: String
    /// SHA-256 over the scenario's trace files.
    public var tracesHash: String

    /// Describes a batch; `tracesHash` is computed by `Job.init` when left empty.
    public init(label: String, scenario: Scenario, settingsJSON: String = "{}", tracesHash: String = "") {
        self.label = label
        self.scenario = scenario
        self.settingsJSON = settingsJSON
        scenarioHash = ScenarioFingerprint.configHash(scenario.resolvedConfig)
        self.tracesHash = tracesHash
    }
}

/// A list of independent work items — every replication of every trace of every batch —
/// and what the report records about them. The unit that `--jobs` spreads over threads,
/// `--shard` over machines, and `keysim merge` puts back together.
public struct Job: Sendable {
    /// "run", "compare" or "sweep".
    public let command: String
    /// The variants, in order; batch-major order of the work items.
    public let batches: [JobBatch]
    /// Replications of each trace in each batch.
    public let replications: Int
    /// Traces per batch (the same for every batch, so runs pair up by trace index).
    public let traceCount: Int
    /// The seed every batch runs with (common random numbers across batches).
    public let seed: UInt64
    /// Extra members of `spec` that define the job (a sweep's parameters), as JSON members
    /// without braces, or "".
    public let extraSpec: String
    /// A canonical JSON description of everything that determines the rows: command,
    /// batches (labels, scenario and trace hashes, settings), seed, replications, keysim
    /// version. Stored in `jobs.spec`.
    public let spec: String
    /// SHA-256 of `spec`: shards of one job share it, and `keysim merge` refuses to combine
    /// files whose keys differ.
    public let key: String

    /// Describes a job. Every batch gets `seed` and `replications`.
    /// - Precondition: at least one batch, and every batch has `traceCount` traces.
    /// - Throws: an `InputError` when a trace file cannot be read for its hash.
    public init(command: String, batches: [JobBatch], seed: UInt64, replications: Int, extraSpec: String = "") throws {
        precondition(!batches.isEmpty, "a job has at least one batch")
        let traceCount = batches[0].scenario.traces.count
        // A scenario with only a fleet has no traces for a run, a comparison or a sweep of runs.
        if traceCount == 0, let scenario = batches.first?.scenario {
            throw FleetRunError("\(scenario.path): error: the scenario has no traces to replay"
                + (scenario.fleet != nil ? "; its fleet runs with 'keysim fleet \(scenario.path)'" : ""))
        }
        precondition(batches.allSatisfy { $0.scenario.traces.count == traceCount }, "every batch replays as many traces")
        var hashes: [[String]: String] = [:]
        var prepared = batches
        for index in prepared.indices {
            prepared[index].scenario.seed = seed
            prepared[index].scenario.replications = replications
            if prepared[index].tracesHash.isEmpty {
                let entries = prepared[index].scenario.traceEntries
                // Files by path; a population by its content key (labels can repeat).
                let identity = entries.map { $0.file ?? "population \($0.populationKey ?? "")" }
                if let known = hashes[identity] {
                    prepared[index].tracesHash = known
                } else {
                    let hash = try ScenarioFingerprint.tracesHash(entries)
                    hashes[identity] = hash
                    prepared[index].tracesHash = hash
                }
            }
        }
        self.command = command
        self.batches = prepared
        self.replications = replications
        self.traceCount = traceCount
        self.seed = seed
        self.extraSpec = extraSpec
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("command"); writer.string(command)
        writer.key("keysim_version"); writer.string(KeysimVersion.current)
        writer.key("seed"); writer.integer(seed)
        writer.key("replications"); writer.integer(replications)
        writer.key("traces"); writer.integer(traceCount)
        writer.key("batches")
        writer.beginArray()
        for batch in prepared {
            writer.beginObject()
            writer.key("label"); writer.string(batch.label)
            writer.key("scenario_hash"); writer.string(batch.scenarioHash)
            writer.key("traces_hash"); writer.string(batch.tracesHash)
            writer.key("settings"); writer.raw(batch.settingsJSON)
            writer.endObject()
        }
        writer.endArray()
        writer.rawMembers(extraSpec)
        writer.endObject()
        let text = writer.text
        spec = text
        key = SHA256.hex(text.utf8)
    }

    /// The number of work items: batches × replications × traces.
    public var itemCount: Int { batches.count * replications * traceCount }

    /// The work item at `position`: batch-major, then replication, then trace, the order
    /// of run ids in a single-machine report.
    public func item(at position: Int) -> (batch: Int, item: WorkItem) {
        precondition(position >= 0 && position < itemCount, "work item \(position) is outside 0..<\(itemCount)")
        let perBatch = replications * traceCount
        let batch = position / perBatch
        let withinBatch = position % perBatch
        return (batch, WorkItem(replication: withinBatch / traceCount, traceIndex: withinBatch % traceCount))
    }

    /// The scenario's traces hash for the whole job: the first batch's when all batches
    /// replay the same files, otherwise a hash over every batch's.
    public var tracesHash: String {
        let distinct = batches.map(\.tracesHash)
        return Set(distinct).count == 1 ? distinct[0] : SHA256.hex(distinct.joined(separator: ",").utf8)
    }
}
