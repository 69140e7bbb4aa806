import Foundation
import Report
import Scenarios
import Sim

// The fleet's benchmarks (issue 27, "Speed"), run as `keysim fleet` runs them: the bundled
// fleet scenarios through `FleetRunner` (each session planned, its typing synthesised by the
// human typist, its keyboard replayed against the partition's shared backend, what it saw
// binned into minutes: the report's summary detail).
//
// `fleet_keys_per_s`: scenarios/fleet/busy-hour.json5, 1,000 users over the busiest hour, as
// `keysim fleet` runs it by default, on every core (`--jobs` the cores: its one partition
// simulated on one thread, the others helpers that synthesise sessions and step the sessions
// that run ahead); keys replayed per second of wall time, synthesis included.
// `fleet_jobs1_keys_per_s`: the same on one thread (`--jobs 1`).
// `fleet_sessions_keys_per_s`: the same fleet's sessions, synthesised before the clock starts,
// each replayed alone by the keyboard with the scenario's own cloud inside its simulation (as
// `keysim run` replays a trace), one after another: the keyboard on the fleet's typing with
// neither the shared backend, the fleet's stepping nor synthesis. It tells how much of the gap
// between `fleet_jobs1_keys_per_s` and `keyboard_keys_per_s` is the workload (chat sessions of a
// few hundred keys with fixes and requests, against one long field of a dozen words).
// `fleet_over_keyboard`: the clause itself, `fleet_keys_per_s` over `keyboard_keys_per_s`,
// both measured side by side in rounds (`fleetOverKeyboard`).
// `fleet_jobs2_speedup`: the same fleet (one partition) with `--jobs 1` over `--jobs 2`, where
// the second thread is a helper.
// `fleet_day_10k_s` and `fleet_day_10k_rss_mb`: scenarios/fleet/day.json5, 10,000 users over
// a day in four regions, on one thread (`--jobs 1`), run in a child process
// (`KeysimBench --fleet-day-child`) so that its peak resident memory is its own.

/// A bundled fleet scenario, loaded from the package root.
func fleetScenario(_ name: String) -> Scenario {
    do {
        return try ScenarioLoader.load(path: "scenarios/fleet/\(name).json5")
    } catch {
        fatalError("bench: run from the package root: \(error)")
    }
}

/// Prints a fleet's figures to stderr when `KEYSIM_BENCH_VERBOSE=1`.
func describeFleet(_ name: String, _ result: FleetResult, seconds: Double) {
    guard verbose else { return }
    let summary = result.summary
    let line = "  \(name): \(result.sessions) sessions, \(summary.keys) keys, \(summary.arrivals) attempts "
        + "(\(summary.rejected.reduce(0) { $0 + $1.count }) refused), open max \(result.sessionsOpenMax.max() ?? 0), "
        + String(format: "%.2f s\n", seconds)
    FileHandle.standardError.write(Data(line.utf8))
}

/// The busy hour's fleet once with `users` users, its figures to stdout: for a profiler
/// (`valgrind --tool=callgrind KeysimBench --fleet-profile 100`).
func runFleetProfile(users: Int) {
    let result = try! FleetRunner.run(fleetScenario("busy-hour"), users: users)
    let summary = result.summary
    print("fleet profile: \(result.sessions) sessions, \(summary.keys) keys, \(summary.arrivals) attempts, "
          + "\(summary.rejected.reduce(0) { $0 + $1.count }) refused, utilisation \(summary.utilisation ?? 0)")
}

/// `fleet_keys_per_s` (`jobs` the cores) and `fleet_jobs1_keys_per_s` (`jobs` 1): the busy
/// hour's fleet, keys per second of wall time, the median of three.
func fleetKeysPerSecond(jobs: Int) -> Double {
    let scenario = fleetScenario("busy-hour")
    precondition(scenario.fleet?.users == 1_000, "the busy hour's fleet has 1,000 users")
    var rates: [Double] = []
    for _ in 0..<3 {
        var result: FleetResult?
        let elapsed = seconds { result = try! FleetRunner.run(scenario, jobs: jobs) }
        describeFleet("fleet hour, --jobs \(jobs)", result!, seconds: elapsed)
        rates.append(Double(result!.summary.keys) / elapsed)
    }
    return median(rates)
}

/// `fleet_over_keyboard`: the clause of issue 27 ("`fleet_keys_per_s` at least 80 % of
/// `keyboard_keys_per_s`") measured as it is stated, a ratio, with both lines measured side by
/// side: in each of five rounds, the keyboard line's three replays and the busy hour's three
/// runs as `fleet_keys_per_s` runs them (which comes first alternates), the ratio of their
/// medians; the median of the rounds' ratios. A host whose speed wanders moves both halves of
/// a round alike, where the two lines alone are measured a minute or more apart. Each half is
/// the median of three back-to-back runs of one workload, as its line is.
func fleetOverKeyboard(rounds: Int = 5) -> Double {
    let keyboard = KeyboardWorkload()
    let jobs = ProcessInfo.processInfo.activeProcessorCount
    var ratios: [Double] = []
    for round in 0..<rounds {
        var fleetRate = 0.0
        var keyboardRate = 0.0
        if round.isMultiple(of: 2) {
            keyboardRate = keyboardKeysPerSecond(keyboard)
            fleetRate = fleetKeysPerSecond(jobs: jobs)
        } else {
            fleetRate = fleetKeysPerSecond(jobs: jobs)
            keyboardRate = keyboardKeysPerSecond(keyboard)
        }
        if verbose { FileHandle.standardError.write(Data(String(format: "  round %d: %.3f\n", round, fleetRate / keyboardRate).utf8)) }
        ratios.append(fleetRate / keyboardRate)
    }
    return median(ratios)
}

/// `fleet_sessions_keys_per_s`: the busy hour's sessions replayed alone, keys per second of
/// wall time, the median of three.
func fleetSessionsKeysPerSecond() -> Double {
    let scenario = fleetScenario("busy-hour")
    let fleet = scenario.fleet!
    let planner = FleetPlanner(fleet: fleet, seed: scenario.seed)
    let prepared = planner.plans(ofUsers: 0..<fleet.users).map { try! planner.prepare($0) }
    var rates: [Double] = []
    for _ in 0..<3 {
        let bins = FleetMinuteBins(spanMinutes: fleet.day.minutes, replicas: 1)
        let caches = SimulationCaches()
        let elapsed = seconds {
            for session in prepared {
                let plan = session.session.plan
                var simulation = KeyboardSimulation(config: FleetPlanner.keyboard(scenario.keyboard, on: session.session.network),
                                                    seed: scenario.seed, replication: 0,
                                                    traceKey: "user\(plan.user)/session\(plan.session)", header: session.header,
                                                    caches: caches, user: plan.user, session: plan.session)
                var source = ArrayTraceSource(session.events)
                var sink = FleetMinuteSink(bins: bins, startNanos: plan.start.nanoseconds)
                _ = try! simulation.run(&source, into: &sink)
            }
        }
        let keys = bins.minutes.reduce(0) { $0 + $1.keys }
        if verbose { FileHandle.standardError.write(Data("  fleet sessions alone: \(prepared.count) sessions, \(keys) keys, \(String(format: "%.2f", elapsed)) s\n".utf8)) }
        rates.append(Double(keys) / elapsed)
    }
    return median(rates)
}

/// `fleet_jobs2_speedup`: wall time of the busy hour's fleet on one thread over the same on
/// two (its one partition simulated on one, its sessions synthesised ahead on the other), the
/// median of the ratios of five back-to-back pairs, as `jobs2_speedup` measures replications.
func fleetJobs2Speedup() -> Double {
    let scenario = fleetScenario("busy-hour")
    var ratios: [Double] = []
    for _ in 0..<5 {
        var one: FleetResult?
        var two: FleetResult?
        let oneSeconds = seconds { one = try! FleetRunner.run(scenario, jobs: 1) }
        let twoSeconds = seconds { two = try! FleetRunner.run(scenario, jobs: 2) }
        precondition(one == two, "the same fleet for any --jobs")
        ratios.append(oneSeconds / twoSeconds)
    }
    return median(ratios)
}

/// The day's fleet, run in this process (the child `--fleet-day-child` runs it alone).
func runFleetDay() {
    let scenario = fleetScenario("day")
    precondition(scenario.fleet?.users == 10_000, "the day's fleet has 10,000 users")
    var result: FleetResult?
    let elapsed = seconds { result = try! FleetRunner.run(scenario, jobs: 1) }
    describeFleet("fleet day", result!, seconds: elapsed)
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
    report("fleet_keys_per_s", fleetKeysPerSecond(jobs: ProcessInfo.processInfo.activeProcessorCount), "keys/s")
    report("fleet_jobs1_keys_per_s", fleetKeysPerSecond(jobs: 1), "keys/s")
    report("fleet_sessions_keys_per_s", fleetSessionsKeysPerSecond(), "keys/s")
    if selected.isEmpty || selected.contains("fleet_over_keyboard") {
        print("bench fleet_over_keyboard \(TextTable.fixed(fleetOverKeyboard(), 2)) x")
    }
    if selected.isEmpty || selected.contains("fleet_jobs2_speedup") {
        print("bench fleet_jobs2_speedup \(TextTable.fixed(fleetJobs2Speedup(), 2)) x")
    }
    if selected.isEmpty || selected.contains("fleet_day_10k_s") || selected.contains("fleet_day_10k_rss_mb"),
       let day = fleetDayFigures() {
        report("fleet_day_10k_s", day.seconds, "s")
        report("fleet_day_10k_rss_mb", day.residentMiB, "MB")
    }
}
