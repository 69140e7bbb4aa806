import Foundation
import Sim

/// Runs a scenario's fleet: one `FleetSimulation` per partition, each with its own shared
/// backend of the partition's replicas, `jobs` partitions at a time (threads left over
/// synthesise sessions' typing ahead of each partition's simulation); the partitions' minutes
/// add up (`FleetResult.merge`) to the run's, the same for any `jobs` and any sharding.
public enum FleetRunner {
    /// Runs the partitions of `shard` (partition p belongs to shard K/N when p % N == K − 1)
    /// of the scenario's fleet, `jobs` partitions at a time; the same result for any `jobs`.
    /// `users` overrides `fleet.users`. Throws a `FleetRunError` for a scenario with no fleet,
    /// and what a session throws (a run limit reached, say).
    public static func run(_ scenario: Scenario, users: Int? = nil, shard: Shard = .whole, jobs: Int = 1,
                           progress: (@Sendable (FleetProgress) -> Void)? = nil) throws -> FleetResult {
        precondition(jobs >= 1, "at least one job")
        guard var fleet = scenario.fleet else {
            throw FleetRunError("\(scenario.path): error: the scenario has no 'fleet' section (see docs/scenario-format.md, \"Fleets\")")
        }
        if let users {
            guard (1...FleetConfig.usersMax).contains(users) else {
                throw FleetRunError("--users must be between 1 and \(FleetConfig.usersMax), not \(users)")
            }
            // Each simulated user stands for as many daily users as before.
            fleet.represents = max(users, Int((Double(fleet.represents) / Double(fleet.users) * Double(users)).rounded()))
            fleet.users = users
        }
        let fleetAsRun = fleet
        let planner = FleetPlanner(fleet: fleet, seed: scenario.seed)
        let ranges = fleet.userRanges(users: fleet.users)
        let held = Array(shard.positions(of: fleet.partitions.count))
        let fingerprint = Self.fingerprint(scenario)
        let tracker = FleetProgressTracker(partitions: held.count, progress: progress)
        // The partitions' outcomes in partition order, whatever thread ran them; after a
        // failure the rest are skipped and the earliest failure is rethrown.
        let slots = ResultSlots<FleetPartitionRun.Outcome>(count: held.count)
        let running = min(jobs, max(1, held.count))
        let prepareThreads = helperThreads(jobs: jobs, running: running, cores: ProcessInfo.processInfo.activeProcessorCount)
        DispatchQueue.concurrentPerform(iterations: running) { _ in
            while let slot = slots.claim() {
                let partition = held[slot]
                slots.store(Result {
                    var run = FleetPartitionRun(scenario: scenario, fleet: fleetAsRun, planner: planner, partition: partition,
                                                users: ranges[partition], tracker: tracker)
                    run.prepareThreads = prepareThreads
                    return try run.run()
                }, at: slot)
            }
        }
        var runs: [FleetPartitionRun.Outcome] = []
        for result in slots.results { runs.append(try result!.get()) }
        var minutes = runs.first?.minutes ?? []
        for run in runs.dropFirst() {
            FleetResult.pad(&minutes, to: max(minutes.count, run.minutes.count))
            var theirs = run.minutes
            FleetResult.pad(&theirs, to: minutes.count)
            for index in minutes.indices { minutes[index].merge(theirs[index]) }
        }
        // A shard holding no partition reports the span's minutes, empty, with no replica.
        FleetResult.pad(&minutes, to: fleet.day.minutes)
        return FleetResult(scenarioName: scenario.name, fingerprint: fingerprint, seed: scenario.seed, users: fleet.users,
                           represents: fleet.represents, partitionCount: fleet.partitions.count, partitions: held,
                           spanMinutes: fleet.day.minutes, startHour: fleet.day.startHour, dayShare: fleet.day.spanShare,
                           minutes: minutes, sessions: runs.map(\.sessions).reduce(0, +), sessionsOpenMax: runs.map(\.sessionsOpenMax))
    }

    /// Helper threads for each of `running` partitions run at once: the threads `jobs` leaves
    /// free, shared out evenly (a fleet of one partition on two cores: one simulates, one
    /// synthesises sessions and steps those that run ahead). Never more than the `cores` leave
    /// free: a helper waits by spinning a while, so helpers beyond the cores would only take
    /// turns with the threads doing the work (`--jobs 32` on two cores ran the busy hour three
    /// times slower). The result is the same for any number of helpers.
    static func helperThreads(jobs: Int, running: Int, cores: Int) -> Int {
        max(0, min(jobs, cores) - running) / running
    }

    /// The scenario as run: its configuration after policy and overrides, and the content
    /// key of its typists (their profiles and texts).
    static func fingerprint(_ scenario: Scenario) -> String {
        String(ScenarioFingerprint.configHash(scenario.resolvedConfig).prefix(16)) + "-" + (scenario.fleet?.typists.key ?? "")
    }
}

/// A fleet run that cannot start: no fleet, or a bad `--users`.
public struct FleetRunError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
