import XCTest
@testable import Scenarios
@testable import Sim

/// A fleet run end to end: small fleets of synthesised chat sessions on a shared backend.
final class FleetRunnerTests: XCTestCase {
    /// A scenario file's text with a `fleet` section (`fleet` is its body), placed among the
    /// package's scenarios so that `../traces/text/…` resolves.
    static func scenario(_ fleet: String, extra: String = "", overrides: [ScenarioLoader.Override] = []) throws -> Scenario {
        let text = """
        {
          name: "fleet-test", seed: 7,
          \(extra.contains("debounce") ? "" : "debounce: { policy: 'sentence-aware', sentenceEndMs: 400, otherwiseMs: 2000 },")
          \(extra)
          fleet: { \(fleet) },
        }
        """
        return try ScenarioLoader.parse(text, path: PackageRoot.path + "/scenarios/fleet-test.json5", overrides: overrides)
    }

    /// A busy hour of `users` chat typists on a backend of `replicas`.
    static let busyHour = """
        users: 24, represents: 2400,
        day: { activity: "busy-hour" },
        sessions: { perUserDay: 12, length: 2 },
        typists: [{ typist: "chat", weight: 3, wpm: { mean: 36.2, sd: 13.2 } }, { typist: "copying", weight: 1 }],
        texts: ["../traces/text/chat-session.txt", "../traces/text/short-messages.txt"],
        networks: { wifi: 0.6, lte: 0.35, poor: 0.05 },
        backend: { preset: "self-hosted-small", replicas: 1 },
        """

    func testATinyFleetRunsEndToEnd() throws {
        let scenario = try Self.scenario(Self.busyHour)
        let result = try FleetRunner.run(scenario)
        let summary = result.summary
        print("sessions \(result.sessions), minutes \(result.minutes.count), arrivals \(summary.arrivals), keys \(summary.keys), "
              + "cost/day \(summary.costUSDPerDay), busiest \(String(describing: summary.busiestHour)), p95 verdict \(String(describing: summary.verdictP95Ms))")
        XCTAssertGreaterThan(result.sessions, 0)
        XCTAssertGreaterThanOrEqual(result.minutes.count, 60)
        XCTAssertEqual(result.minutes.map(\.minute), Array(0..<result.minutes.count))
        XCTAssertEqual(result.minutes.map(\.sessionsStarted).reduce(0, +), result.sessions)
        XCTAssertEqual(result.minutes.prefix(60).map(\.sessionsStarted).reduce(0, +), result.sessions, "sessions start within the span")
        XCTAssertGreaterThan(summary.keys, 0)
        XCTAssertGreaterThan(summary.arrivals, 0)
        XCTAssertEqual(summary.arrivals, summary.admitted + summary.rejected.map(\.count).reduce(0, +))
        XCTAssertGreaterThan(summary.costUSD, 0)
        XCTAssertEqual(summary.busiestHour, 21)
        XCTAssertNotNil(summary.verdictCoverage)
    }

    /// Two partitions of 12 users each, one replica each, a busy hour.
    static let twoPartitions = """
        users: 16,
        day: { activity: "busy-hour" },
        sessions: { perUserDay: 12, length: 1 },
        typists: [{ typist: "chat", wpm: { mean: 36.2, sd: 13.2 } }],
        texts: ["../traces/text/short-messages.txt"],
        networks: { wifi: 0.7, lte: 0.3 },
        backend: { replicas: 1, maxBatch: 2 },
        partitions: [{ share: 1 }, { share: 1, replicas: 2 }],
        """

    func testTheSameResultForAnyJobsAndShardsMergeToTheWholeRun() throws {
        let scenario = try Self.scenario(Self.twoPartitions)
        let whole = try FleetRunner.run(scenario, jobs: 1)
        XCTAssertEqual(whole.partitions, [0, 1])
        XCTAssertEqual(whole.minutes[0].replicas, 3, "the partitions' replicas add")
        let reports = ProgressReports()
        XCTAssertEqual(try FleetRunner.run(scenario, jobs: 2, progress: { reports.add($0) }), whole, "jobs 1 and 2")
        // Five jobs over two partitions: each partition's sessions synthesised ahead by a thread of its own.
        XCTAssertEqual(try FleetRunner.run(scenario, jobs: 5), whole, "jobs 1 and 5")
        let last = try XCTUnwrap(reports.all.last)
        XCTAssertEqual(last.partitions, 2)
        XCTAssertEqual(last.partitionsDone, 2)
        XCTAssertEqual(last.sessionsPlanned, whole.sessions)
        XCTAssertEqual(last.sessionsDone, whole.sessions)
        // A shard holding no partition: the span's minutes, empty; merging it changes nothing.
        let none = try FleetRunner.run(scenario, shard: Shard(index: 2, count: 3))
        XCTAssertEqual(none.partitions, [])
        XCTAssertEqual(none.minutes.count, 60)
        XCTAssertEqual(none.minutes.map(\.replicas), Array(repeating: 0, count: 60))
        XCTAssertEqual(none.sessions, 0)
        var withNone = whole
        try withNone.merge(none)
        XCTAssertEqual(withNone, whole)
        var first = try FleetRunner.run(scenario, shard: Shard(index: 0, count: 2), jobs: 1)
        let second = try FleetRunner.run(scenario, shard: Shard(index: 1, count: 2), jobs: 1)
        XCTAssertEqual(first.partitions, [0])
        XCTAssertEqual(second.partitions, [1])
        XCTAssertEqual(first.sessions + second.sessions, whole.sessions)
        var reversed = second
        try reversed.merge(first)
        try first.merge(second)
        XCTAssertEqual(first, whole, "shards 1/2 and 2/2 merged are the whole run")
        XCTAssertEqual(reversed, whole, "in either order")
        XCTAssertEqual(first.summary, whole.summary)
        XCTAssertTrue(whole.isWhole)
    }

    /// One partition: the threads it leaves free synthesise sessions ahead of its simulation,
    /// and the result is the one thread's, session for session.
    func testOnePartitionIsTheSameWithSessionsSynthesisedAhead() throws {
        let scenario = try Self.scenario(Self.twoPartitions
            .replacingOccurrences(of: "partitions: [{ share: 1 }, { share: 1, replicas: 2 }],", with: "")
            .replacingOccurrences(of: "users: 16,", with: "users: 40,"))
        let one = try FleetRunner.run(scenario, jobs: 1)
        XCTAssertEqual(one.partitions, [0])
        XCTAssertGreaterThan(one.sessions, 20)
        for jobs in [2, 4] { XCTAssertEqual(try FleetRunner.run(scenario, jobs: jobs), one, "jobs 1 and \(jobs)") }
    }

    func testMergingWhatIsNotOneRunsShardsThrows() throws {
        let scenario = try Self.scenario(Self.twoPartitions)
        let shard = try FleetRunner.run(scenario, users: 4, shard: Shard(index: 0, count: 2))
        var other = shard
        other.partitions = [1]
        var cases: [(FleetResult, String)] = []
        var seed = other
        seed.seed += 1
        cases.append((seed, "different seeds: 7 and 8"))
        var name = other
        name.scenarioName = "another"
        cases.append((name, "different scenarios: 'fleet-test' and 'another'"))
        let replicas = try FleetRunner.run(try Self.scenario(Self.twoPartitions, overrides: [try .parse("fleet.backend.replicas=3")]),
                                           users: 4, shard: Shard(index: 1, count: 2))
        cases.append((replicas, "different scenario settings (fingerprints)"))
        var users = other
        users.users = 5
        cases.append((users, "different fleet sizes: 4 users for 4 and 5 users for 4"))
        cases.append((shard, "both hold partition 1 (shards overlap)"))
        for (theirs, message) in cases {
            var mine = shard
            XCTAssertThrowsError(try mine.merge(theirs), message) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
        XCTAssertThrowsError(try FleetResult.merged([]))
        var fine = shard
        XCTAssertNoThrow(try fine.merge(other))
    }

    func testLittlesLawHoldsOnTheMinutes() throws {
        // One replica serving one request at a time: a queue forms at the busy hour. Over the
        // minutes with arrivals: mean queue length = admissions per unit time × mean wait.
        let scenario = try Self.scenario("""
            users: 40, day: { activity: "busy-hour" }, sessions: { perUserDay: 14, length: 2 },
            typists: [{ typist: "chat" }], texts: ["../traces/text/chat-session.txt"],
            backend: { replicas: 1, maxBatch: 1, iteration: { baseMs: 100 }, admission: false, queueLimit: 10000 },
            """, extra: "debounce: { policy: 'fixed', delayMs: 300 }, network: { timeoutMs: 120000 },")
        let result = try FleetRunner.run(scenario)
        let busy = result.minutes.filter { $0.backend.admitted > 0 }
        let time = Double(busy.count) * Double(FleetMinute.lengthNanos)
        let queueLength = busy.map { Double($0.backend.queueLengthNanos) }.reduce(0, +) / time
        let rate = Double(busy.map(\.backend.admitted).reduce(0, +)) / time
        let wait = Double(busy.map(\.backend.queueWaitNanos).reduce(0, +)) / Double(busy.map(\.backend.started).reduce(0, +))
        print("L = \(queueLength), λW = \(rate * wait) (λ = \(rate * 1e9)/s, W = \(wait / 1e6) ms), busy minutes \(busy.count)")
        XCTAssertGreaterThan(queueLength, 0.05, "a queue formed")
        XCTAssertEqual(queueLength, rate * wait, accuracy: 0.1 * queueLength, "Little's law within 10 %")
        // Over the whole run every admitted attempt was served or given up in the queue, and
        // ∫ queue length is the waits of those served plus those of the ones given up.
        let all = result.minutes.map(\.backend).reduce(SharedBackendMeter(), +)
        XCTAssertEqual(all.started + all.abandoned, all.admitted)
        XCTAssertGreaterThanOrEqual(all.queueLengthNanos, all.queueWaitNanos)
        if all.abandoned == 0 { XCTAssertEqual(all.queueLengthNanos, all.queueWaitNanos) }
    }

    func testMemoryFollowsTheOpenSessions() throws {
        let scenario = try Self.scenario("""
            users: 20, day: { activity: "flat", hours: 2 }, sessions: { perUserDay: { fixed: 24 }, length: 1 },
            typists: [{ typist: "chat" }], texts: ["../traces/text/short-messages.txt"],
            """)
        let result = try FleetRunner.run(scenario)
        print("sessions \(result.sessions), open at once at most \(result.sessionsOpenMax)")
        // Of 24 sessions a day, each in 2 hours of 24 equal ones with probability 1/12: 40 ± 6.
        XCTAssertEqual(Double(result.sessions), 40, accuracy: 24)
        XCTAssertEqual(result.minutes.map(\.sessionsStarted).reduce(0, +), result.sessions)
        XCTAssertLessThan(result.sessionsOpenMax[0] * 8, result.sessions, "sessions open at once far below sessions")
        let open = result.minutes.map(\.meanOpenSessions)
        XCTAssertLessThanOrEqual(open.max()!, Double(result.sessionsOpenMax[0]))
        XCTAssertGreaterThan(open.reduce(0, +), 0)
    }

    func testARejectedRequestsTextGoesWithALaterOne() throws {
        // Admission far below the backend's service time: most requests are refused and,
        // with one attempt, given up; their text goes with the session's next request.
        let scenario = try Self.scenario("""
            users: 12, day: { activity: "busy-hour" }, sessions: { perUserDay: 60, length: { fixed: 1 } },
            typists: [{ typist: "chat" }], texts: ["../traces/text/chat-session.txt"],
            backend: { replicas: 1, maxBatch: 1, iteration: { baseMs: 60 }, admission: { firstTokenTargetMs: 150 } },
            """, extra: "debounce: { policy: 'fixed', delayMs: 300 }, cloud: { retry: { maxAttempts: 1 } },")
        let fleet = try XCTUnwrap(scenario.fleet)
        let planner = FleetPlanner(fleet: fleet, seed: scenario.seed)
        var rows: [FleetSessionKey: [RequestObservation]] = [:]
        var edits: [FleetSessionKey: [KeyObservation]] = [:]
        let caches = SimulationCaches()
        var simulation = FleetSimulation<FleetPlanner.Source, ObservationBuffer>(
            backend: SharedBackend(config: fleet.backend), plans: planner.plans(ofUsers: 0..<fleet.users),
            open: { plan, _ in try planner.open(plan, keyboard: scenario.keyboard, caches: caches, sink: ObservationBuffer(keepsTasks: false)) },
            close: { plan, _, sink in
                let key = FleetSessionKey(user: plan.user, session: plan.session)
                rows[key] = sink.requests.sorted { $0.id < $1.id }
                edits[key] = Array(sink.keys)
            })
        try simulation.run()
        var carried = 0
        var rejected = 0
        for (key, requests) in rows {
            for (index, request) in requests.enumerated() where request.outcome == .rejected {
                rejected += 1
                guard let next = requests[(index + 1)...].first(where: { $0.sent >= request.end }) else { continue }
                // One message a session: one field, so unless an answer confirmed some of that
                // text meanwhile, the next request sends from where the refused one started
                // (its text and what was typed since).
                // (a backspace or a picked suggestion in between changes what is new).
                guard !requests.contains(where: { $0.outcome == .answered && $0.end > request.sent && $0.end <= next.sent }),
                      !edits[key]!.contains(where: { $0.edit != .insert && $0.touch > request.sent && $0.touch <= next.sent }) else { continue }
                XCTAssertGreaterThanOrEqual(next.characters, request.characters, "the next request carries the refused text")
                XCTAssertGreaterThan(next.textVersion, request.textVersion)
                carried += 1
            }
        }
        print("rejected \(rejected), carried by a later request \(carried)")
        XCTAssertGreaterThan(rejected, 0)
        XCTAssertGreaterThan(carried, 0)
        XCTAssertEqual(rows.values.flatMap { $0 }.map(\.rejections).reduce(0, +),
                       simulation.backend.meter(at: SimTime(nanoseconds: 10 * FleetPlanner.hourNanos)).rejected(.admission))
    }

    func testAScenarioWithoutAFleetOrABadUserCountIsAClearError() throws {
        let plain = try ScenarioLoader.load(path: PackageRoot.path + "/scenarios/default.json5")
        XCTAssertThrowsError(try FleetRunner.run(plain)) { error in
            XCTAssertTrue("\(error)".contains("error: the scenario has no 'fleet' section"), "\(error)")
        }
        XCTAssertThrowsError(try FleetRunner.run(try Self.scenario(Self.twoPartitions), users: 0)) { error in
            XCTAssertEqual("\(error)", "--users must be between 1 and 10000000, not 0")
        }
    }
}

/// The bundled fleets in scenarios/fleet/ load, and the busy hour runs on a few of its users.
final class BundledFleetTests: XCTestCase {
    func testTheBundledFleetsLoadAndTheBusyHourRuns() throws {
        let busy = try ScenarioLoader.load(path: PackageRoot.path + "/scenarios/fleet/busy-hour.json5")
        let day = try ScenarioLoader.load(path: PackageRoot.path + "/scenarios/fleet/day.json5")
        XCTAssertEqual(busy.fleet?.users, 1_000)
        XCTAssertEqual(busy.fleet?.day.hours, 1)
        XCTAssertEqual(day.fleet?.users, 10_000)
        XCTAssertEqual(day.fleet?.day.hours, 24)
        XCTAssertEqual(day.fleet?.partitions.count, 4)
        XCTAssertEqual(busy.keyboard.debounce, try ScenarioLoader.load(path: PackageRoot.path + "/scenarios/default.json5").keyboard.debounce,
                       "the seed keyboard's debounce")
        let result = try FleetRunner.run(busy, users: 30, jobs: 2)
        let summary = result.summary
        print("30 users of the busy hour: \(result.sessions) sessions, \(summary.arrivals) arrivals, utilisation \(summary.utilisation ?? 0), "
              + "p95 first token \(summary.firstTokenP95Ms ?? 0) ms, p95 verdict \(summary.verdictP95Ms ?? 0) ms, coverage \(summary.verdictCoverage ?? 0), "
              + "cost/day \(summary.costUSDPerDay) USD, per daily user \(summary.costUSDPerDailyUser)")
        XCTAssertEqual(result.represents, 30_000, "30 users stand for as many daily users each as 1,000 did")
        XCTAssertGreaterThan(summary.arrivals, 0)
        XCTAssertEqual(summary.busiestHour, 21)
    }
}

/// A fleet of one partition on more threads than one: helpers synthesise its sessions and
/// step the sessions that run ahead, each into minutes of its own, added in at the end.
final class FleetHelpersTests: XCTestCase {
    func testOnePartitionOnHelpersGivesTheSameMinutes() throws {
        let busy = try ScenarioLoader.load(path: PackageRoot.path + "/scenarios/fleet/busy-hour.json5")
        let one = try FleetRunner.run(busy, users: 60, jobs: 1)
        XCTAssertEqual(one.partitions, [0])
        XCTAssertGreaterThan(one.summary.keys, 3_000)
        XCTAssertGreaterThan(one.summary.arrivals, 50)
        for jobs in [2, 3] {
            let run = try FleetRunner.run(busy, users: 60, jobs: jobs)
            XCTAssertEqual(run.minutes, one.minutes, "jobs \(jobs): every minute")
            XCTAssertEqual(run, one, "jobs \(jobs)")
        }
        // More helpers than this machine's cores leave free (`FleetRunner` gives no more):
        // the partition run itself, on 2 and 3 helpers.
        var fleet = busy.fleet!
        fleet.users = 60
        let planner = FleetPlanner(fleet: fleet, seed: busy.seed)
        for helpers in [2, 3] {
            var run = FleetPartitionRun(scenario: busy, fleet: fleet, planner: planner, partition: 0, users: 0..<60,
                                        tracker: FleetProgressTracker(partitions: 1, progress: nil))
            run.prepareThreads = helpers
            let outcome = try run.run()
            XCTAssertEqual(outcome.minutes, one.minutes, "\(helpers) helpers: every minute")
            XCTAssertEqual(outcome.sessions, one.sessions, "\(helpers) helpers")
        }
    }

    /// Helpers take the threads `--jobs` leaves free, shared out among the partitions run at
    /// once, but never more than the cores leave free.
    func testHelpersTakeTheThreadsLeftFreeUpToTheCores() {
        XCTAssertEqual(FleetRunner.helperThreads(jobs: 1, running: 1, cores: 8), 0)
        XCTAssertEqual(FleetRunner.helperThreads(jobs: 2, running: 1, cores: 2), 1, "one partition on two cores")
        XCTAssertEqual(FleetRunner.helperThreads(jobs: 32, running: 1, cores: 2), 1, "--jobs 32 on two cores")
        XCTAssertEqual(FleetRunner.helperThreads(jobs: 3, running: 1, cores: 4), 2)
        XCTAssertEqual(FleetRunner.helperThreads(jobs: 8, running: 2, cores: 8), 3)
        XCTAssertEqual(FleetRunner.helperThreads(jobs: 5, running: 2, cores: 8), 1, "a thread left over is not shared")
        XCTAssertEqual(FleetRunner.helperThreads(jobs: 8, running: 4, cores: 2), 0, "more partitions than cores")
        XCTAssertEqual(FleetRunner.helperThreads(jobs: 4, running: 4, cores: 8), 0)
    }
}

/// Progress reports gathered from the worker threads.
final class ProgressReports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [FleetProgress] = []
    func add(_ report: FleetProgress) { lock.lock(); reports.append(report); lock.unlock() }
    var all: [FleetProgress] { lock.lock(); defer { lock.unlock() }; return reports }
}
