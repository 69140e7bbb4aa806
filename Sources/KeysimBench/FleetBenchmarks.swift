import Foundation
import Scenarios
import Sim

// The fleet's benchmarks (issue 27, "Speed"): many keyboard sessions of synthesised chat
// typing sharing one `SharedBackend`, stepped by `FleetSimulation`, observations kept at the
// summary level (counts and totals; no per-key rows).
//
// `fleet_keys_per_s`: 1,000 users over one busy hour; keys replayed per second of wall time,
// the sessions' synthesis included (a fleet synthesises each session when it starts).
// `fleet_day_10k_s` and `fleet_day_10k_rss_mb`: 10,000 users over a day, run in a child
// process (`KeysimBench --fleet-day-child`) so that its peak resident memory is its own.

/// A fleet to benchmark: the backend, the sessions, the keyboard and how each session's
/// typing is made. Built in one place (`fleetBenchWorkload`), so that the bench can later
/// run the same fleet through the scenario-level runner instead.
struct FleetBenchWorkload {
    var backend: SharedBackendConfig
    var plans: [FleetSessionPlan]
    var keyboard: KeyboardConfig
    var seed: UInt64
    /// The messages sessions type, one chat message each (the default trace's text).
    var messages: [String]
    var typist: HumanTypist

    /// The session's script: one to three consecutive messages of the pool, by its own stream.
    func script(for plan: FleetSessionPlan) -> SynthScript {
        var random = RandomStream(seed: seed, replication: plan.user, name: "bench.fleet.session\(plan.session)")
        let count = 1 + random.nextInt(below: 3)
        let first = random.nextInt(below: messages.count)
        let text = (0..<count).map { messages[(first + $0) % messages.count] }.joined(separator: "\n")
        return SynthScript(segments: [.typed(text)])
    }
}

/// A daily activity curve: the share of a day's sessions that start in each hour, from
/// midnight. An illustrative shape (quiet nights, a morning rise, a midday shoulder and an
/// evening peak at 21:00 about 2.4 times the mean hour), not a measurement.
let benchDayShape: [Double] = [0.6, 0.3, 0.2, 0.15, 0.15, 0.3, 0.8, 1.6, 2.3, 2.4, 2.5, 2.7,
                               3.1, 3.0, 2.7, 2.6, 2.7, 3.0, 3.4, 3.8, 4.2, 4.4, 3.6, 1.9]

/// The fleet benchmarks' workload: `users` users, each with `sessionsPerUser` sessions whose
/// hour is drawn from `hourWeights` (one weight an hour; the minute within it uniform),
/// typing chat messages with the human typist's chat preset on the default scenario's
/// keyboard, against the self-hosted preset with `replicas` replicas.
func fleetBenchWorkload(users: Int, sessionsPerUser: Int, hourWeights: [Double], replicas: Int) -> FleetBenchWorkload {
    let scenario = benchScenario(replications: 1)
    let text = try! TraceFileReader(path: scenario.traces[0]).header.intendedText ?? ""
    let messages = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    precondition(!messages.isEmpty, "the default trace carries its intended text")
    var backend = SharedBackendConfig.preset(.selfHostedSmall)
    backend.replicas = replicas
    let total = hourWeights.reduce(0, +)
    var random = RandomStream(seed: scenario.seed, replication: 0, name: "bench.fleet.starts")
    var plans: [FleetSessionPlan] = []
    plans.reserveCapacity(users * sessionsPerUser)
    for user in 0..<users {
        for session in 0..<sessionsPerUser {
            var pick = random.nextDouble() * total
            var hour = 0
            while hour < hourWeights.count - 1 && pick >= hourWeights[hour] {
                pick -= hourWeights[hour]
                hour += 1
            }
            let nanos = Int64(hour) * 3_600_000_000_000 + Int64(random.nextDouble() * 3_600_000_000_000)
            plans.append(FleetSessionPlan(user: user, session: session, start: SimTime(nanoseconds: nanos)))
        }
    }
    plans.sort { ($0.start, $0.user, $0.session) < ($1.start, $1.user, $1.session) }
    return FleetBenchWorkload(backend: backend, plans: plans, keyboard: scenario.keyboard, seed: scenario.seed,
                              messages: messages, typist: HumanTypist(profile: .chat))
}

/// Observations at the summary level: counts and totals, no rows.
struct FleetTally: ObservationSink {
    var keys = 0
    var keyLatencyNanos: Int64 = 0
    var requests = 0
    var answered = 0
    var verdictNanos: Int64 = 0

    mutating func record(_ observation: Observation) {
        switch observation {
        case .key(let key): recordKey(key)
        case .request(let request):
            requests += 1
            if request.outcome == .answered {
                answered += 1
                verdictNanos += request.roundTrip.nanoseconds
            }
        default: break
        }
    }
    mutating func recordTask(_ task: TaskObservation) {}
    mutating func recordKey(_ key: KeyObservation) {
        keys += 1
        keyLatencyNanos += key.latency.nanoseconds
    }
    mutating func recordSuggestion(_ suggestion: SuggestionObservation) {}
    mutating func recordDebounce(_ event: DebounceObservation) {}
}

/// What a benchmarked fleet did.
struct FleetBenchOutcome {
    var sessions = 0
    var total = FleetTally()
    var meter = SharedBackendMeter()
    var sessionsOpenMax = 0
    var backendEnd = SimTime.zero
}

/// Runs `workload` to its end: every session synthesised when it starts, its totals added
/// up when it closes.
func runFleetBench(_ workload: FleetBenchWorkload) -> FleetBenchOutcome {
    var outcome = FleetBenchOutcome()
    let caches = SimulationCaches()
    var fleet = FleetSimulation<ArrayTraceSource, FleetTally>(
        backend: SharedBackend(config: workload.backend), plans: workload.plans,
        open: { plan, _ in
            let script = workload.script(for: plan)
            let events = workload.typist.synthesize(script, seed: UInt64(plan.user) << 8 | UInt64(plan.session))
            let simulation = FleetSimulation<ArrayTraceSource, FleetTally>.makeSimulation(
                config: workload.keyboard, seed: workload.seed, replication: 0, plan: plan,
                header: TraceHeader(intendedText: workload.typist.intendedText(of: script)), caches: caches)
            return try SessionRunner(simulation: simulation, source: ArrayTraceSource(events), sink: FleetTally())
        },
        close: { _, _, tally in
            outcome.sessions += 1
            outcome.total.keys += tally.keys
            outcome.total.keyLatencyNanos += tally.keyLatencyNanos
            outcome.total.requests += tally.requests
            outcome.total.answered += tally.answered
            outcome.total.verdictNanos += tally.verdictNanos
        })
    try! fleet.run()
    outcome.meter = fleet.backend.meter(at: fleet.backend.clock)
    outcome.sessionsOpenMax = fleet.sessionsOpenMax
    outcome.backendEnd = fleet.backend.clock
    return outcome
}

/// Prints a fleet's figures to stderr when `KEYSIM_BENCH_VERBOSE=1`.
func describeFleet(_ name: String, _ outcome: FleetBenchOutcome, replicas: Int) {
    guard verbose else { return }
    let meter = outcome.meter
    let span = Double(outcome.backendEnd.nanoseconds)
    let line = "  \(name): \(outcome.sessions) sessions, \(outcome.total.keys) keys, \(outcome.total.requests) requests "
        + "(\(meter.arrivals) attempts, \(meter.rejected.reduce(0, +)) refused, \(meter.abandoned) abandoned), "
        + String(format: "utilisation %.2f, mean batch %.2f, mean verdict %.0f ms, open max %d\n",
                 Double(meter.busyReplicaNanos) / (span * Double(replicas)),
                 Double(meter.batchedRequestNanos) / max(1, Double(meter.busyReplicaNanos)),
                 Double(outcome.total.verdictNanos) / 1e6 / Double(max(1, outcome.total.answered)), outcome.sessionsOpenMax)
    FileHandle.standardError.write(Data(line.utf8))
}

/// The busy hour's fleet: 1,000 users, two sessions each in the hour, one replica.
let fleetHourReplicas = 1

/// The busy hour's fleet once with `users` users (two sessions each), on the self-hosted
/// preset's one replica or on the hosted API preset; its figures to stdout.
func runFleetProfile(users: Int, hosted: Bool) {
    var workload = fleetBenchWorkload(users: users, sessionsPerUser: 2, hourWeights: [1], replicas: fleetHourReplicas)
    if hosted { workload.backend = .preset(.hostedAPI) }
    let outcome = runFleetBench(workload)
    let meter = outcome.meter
    print("fleet profile: \(outcome.sessions) sessions, \(outcome.total.keys) keys, \(outcome.total.requests) requests, "
          + "\(meter.arrivals) attempts, \(meter.rejected) refused, \(meter.abandoned) abandoned, busy \(meter.busyReplicaNanos) ns, "
          + "key latency \(outcome.total.keyLatencyNanos) ns, verdicts \(outcome.total.verdictNanos) ns")
}

/// `fleet_keys_per_s`: the busy hour's fleet, keys per second of wall time, the median of three.
func fleetKeysPerSecond() -> Double {
    let workload = fleetBenchWorkload(users: 1_000, sessionsPerUser: 2, hourWeights: [1], replicas: fleetHourReplicas)
    var rates: [Double] = []
    for _ in 0..<3 {
        var outcome = FleetBenchOutcome()
        let elapsed = seconds { outcome = runFleetBench(workload) }
        describeFleet("fleet hour", outcome, replicas: fleetHourReplicas)
        rates.append(Double(outcome.total.keys) / elapsed)
    }
    return median(rates)
}

/// The day's fleet: 10,000 users, ten sessions each over `benchDayShape`, enough replicas
/// for the evening peak.
let fleetDayReplicas = 4

/// The day's fleet, run in this process (the child `--fleet-day-child` runs it alone).
func runFleetDay() {
    let workload = fleetBenchWorkload(users: 10_000, sessionsPerUser: 10, hourWeights: benchDayShape, replicas: fleetDayReplicas)
    let outcome = runFleetBench(workload)
    describeFleet("fleet day", outcome, replicas: fleetDayReplicas)
}

/// `fleet_day_10k_s` and `fleet_day_10k_rss_mb`: the day's fleet in a child process, its
/// wall time and peak resident memory; nil if the child failed.
func fleetDayFigures() -> (seconds: Double, residentMiB: Double)? {
    var peak: Double?
    let elapsed = seconds { peak = peakResidentMiB(CommandLine.arguments[0], ["--fleet-day-child"]) }
    return peak.map { (elapsed, $0) }
}

/// Runs the fleet benchmarks that are selected, printing their lines.
func runFleetBenchmarks() {
    report("fleet_keys_per_s", fleetKeysPerSecond(), "keys/s")
    if selected.isEmpty || selected.contains("fleet_day_10k_s") || selected.contains("fleet_day_10k_rss_mb"),
       let day = fleetDayFigures() {
        report("fleet_day_10k_s", day.seconds, "s")
        report("fleet_day_10k_rss_mb", day.residentMiB, "MB")
    }
}
