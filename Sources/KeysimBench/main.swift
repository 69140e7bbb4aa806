import Foundation
import Report
import Scenarios
import Sim

// `make bench`: one line per benchmark, `bench <name> <value> <unit>`. Each figure is the
// median of several repetitions in this one process, so a noisy neighbour moves it less.

/// Seconds of wall time `body` takes.
func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func report(_ name: String, _ value: Double, _ unit: String) {
    print("bench \(name) \(Int(value.rounded())) \(unit)")
}

/// The hold model: 1,000 pending timers; pop the earliest, schedule a new one at a random
/// later time. Measures the event queue and the engine clock together.
func engineEventsPerSecond() -> Double {
    let pending = 1_000
    let events = 10_000_000
    var rates: [Double] = []
    for repetition in 0..<5 {
        var engine = Engine<Int>()
        var rng = RandomStream(seed: 1, replication: repetition, name: "bench.engine")
        for i in 0..<pending { engine.schedule(i, at: SimTime(nanoseconds: Int64(rng.nextUInt64() % 1_000_000))) }
        var checksum = 0
        let elapsed = seconds {
            for _ in 0..<events {
                let event = engine.next()!
                checksum &+= event
                engine.schedule(event, after: SimDuration(nanoseconds: Int64(rng.nextUInt64() % 1_000_000) + 1))
            }
        }
        precondition(checksum != 0 && engine.pendingCount == pending)
        rates.append(Double(events) / elapsed)
    }
    return median(rates)
}


func cpuSeconds(_ body: () -> Void) -> Double {
    var t0 = timespec(), t1 = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0)
    body()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1)
    return Double(t1.tv_sec - t0.tv_sec) + Double(t1.tv_nsec - t0.tv_nsec) / 1e9
}
func experimentWrite(_ pragmas: [String]) {
    let scenario = benchScenario(replications: 20)
    let items = ScenarioRunner.workItems(replications: scenario.replications, traceCount: scenario.traces.count)
    let results = try! ScenarioRunner.run(scenario, items: items, jobs: 2)
    let batch = BatchInfo(command: "bench", scenario: scenario, scenarioHash: "bench", tracesHash: "bench", wallSeconds: 0)
    let folder = NSTemporaryDirectory() + "keysim-bench-x"
    try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for round in 0..<8 {
        var line = ""
        for (v, sql) in pragmas.enumerated() {
            let path = folder + "/r-\(round)-\(v).sqlite"
            let store = try! ReportStore(path: path)
            try! store.database.execute(sql.isEmpty ? "SELECT 1" : sql)
            var wall = 0.0
            let cpu = cpuSeconds { wall = seconds { _ = try! store.write(batch, results: results) } }
            let rows = try! ReportInspector.rowCount(store.database)
            line += "[\(v)] \(Int(Double(rows) / cpu / 1000))k cpu \(Int(Double(rows) / wall / 1000))k wall  "
        }
        print(line)
    }
}
if CommandLine.arguments.count > 1 { experimentWrite(Array(CommandLine.arguments.dropFirst())); exit(0) }
report("engine_events_per_s", engineEventsPerSecond(), "events/s")

// MARK: - Report writing and parallel replications

/// The bundled default scenario, loaded from the package root `make bench` runs in.
func benchScenario(replications: Int) -> Scenario {
    do {
        var scenario = try ScenarioLoader.load(path: "scenarios/default.json5")
        scenario.replications = replications
        return scenario
    } catch {
        fatalError("bench: run from the package root: \(error)")
    }
}

/// Rows per second `ReportStore.write` puts into a fresh report file: every row of 20
/// replications of the default scenario (runs, keys, requests, tasks, violations), in one
/// transaction, as `keysim run` writes them.
func reportRowsPerSecond() -> Double {
    let scenario = benchScenario(replications: 20)
    let items = ScenarioRunner.workItems(replications: scenario.replications, traceCount: scenario.traces.count)
    let results = try! ScenarioRunner.run(scenario, items: items, jobs: ProcessInfo.processInfo.activeProcessorCount)
    let batch = BatchInfo(command: "bench", scenario: scenario, scenarioHash: "bench", tracesHash: "bench", wallSeconds: 0)
    let folder = NSTemporaryDirectory() + "keysim-bench-\(ProcessInfo.processInfo.processIdentifier)"
    try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var rates: [Double] = []
    for repetition in 0..<5 {
        let path = folder + "/report-\(repetition).sqlite"
        let store = try! ReportStore(path: path)
        let elapsed = seconds { _ = try! store.write(batch, results: results) }
        let rows = try! ReportInspector.rowCount(store.database)
        rates.append(Double(rows) / elapsed)
    }
    return median(rates)
}

/// Wall time of 20 replications of the default scenario on one thread over the same on two:
/// what `--jobs 2` buys on a two-core machine.
func jobs2Speedup() -> Double {
    let scenario = benchScenario(replications: 20)
    let items = ScenarioRunner.workItems(replications: scenario.replications, traceCount: scenario.traces.count)
    var one: [Double] = [], two: [Double] = []
    for _ in 0..<5 {
        one.append(seconds { _ = try! ScenarioRunner.run(scenario, items: items, jobs: 1) })
        two.append(seconds { _ = try! ScenarioRunner.run(scenario, items: items, jobs: 2) })
    }
    return median(one) / median(two)
}

report("report_rows_per_s", reportRowsPerSecond(), "rows/s")
let speedup = jobs2Speedup()
print("bench jobs2_speedup \(TextTable.fixed(speedup, 2)) x")
